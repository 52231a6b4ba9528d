package dev.agentwarden.managed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link ManagedSettings#parse} and the version comparison behind {@code min_version}. */
class ManagedSettingsTest {
    @Test
    void minVersionAndRetention_areRead() {
        ManagedSettings s = ManagedSettings.parse("{\"min_version\": \"1.2\", \"retention\": 90}");
        assertThat(s.minVersion()).isEqualTo("1.2");
        assertThat(s.retentionDays()).isEqualTo(90);
        assertThat(ManagedSettings.parse("{}")).isEqualTo(ManagedSettings.NONE);
    }

    @Test
    void badValues_nameTheKey() {
        assertThatThrownBy(() -> ManagedSettings.parse("{\"min_version\": \"one\"}")).hasMessageContaining("min_version must be a version");
        assertThatThrownBy(() -> ManagedSettings.parse("{\"min_version\": 1}")).hasMessageContaining("min_version must be a version");
        assertThatThrownBy(() -> ManagedSettings.parse("{\"retention\": 0}")).hasMessageContaining("retention must be a whole number of days");
        assertThatThrownBy(() -> ManagedSettings.parse("{\"retention\": \"30d\"}")).hasMessageContaining("retention must be");
        assertThatThrownBy(() -> ManagedSettings.parse("{\"retention_days\": 3}")).hasMessageContaining("unknown key 'retention_days'");
    }

    @Test
    void versions_compareByNumber_andAPreReleaseIsOlderThanItsRelease() {
        assertThat(WardenVersion.older("0.8.0", "0.9")).isTrue();
        assertThat(WardenVersion.older("0.10.0", "0.9")).isFalse();
        assertThat(WardenVersion.older("1.0.0", "1")).isFalse();
        assertThat(WardenVersion.older("1.0.0-SNAPSHOT", "1.0.0")).isTrue();
        assertThat(WardenVersion.older("1.0.1-SNAPSHOT", "1.0.0")).isFalse();
        assertThat(WardenVersion.older(null, "0.1")).isTrue();
        assertThat(WardenVersion.parts("1.2.3.4")).isNull();
        assertThat(WardenVersion.parts("1..2")).isNull();
        assertThat(WardenVersion.parts("v1")).isNull();
        assertThat(WardenVersion.current()).isNotNull();
    }
}
