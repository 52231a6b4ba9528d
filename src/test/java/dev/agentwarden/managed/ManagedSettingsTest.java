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

    @Test
    void telemetry_fillsOnlyTheVariablesTheUserLeftUnset() {
        ManagedSettings s = ManagedSettings.parse("{\"telemetry\": {\"endpoint\": \"https://otel.example.com:4318\","
                + " \"headers\": {\"x-api-key\": \"k 1,2\"}, \"resource\": {\"deployment.environment\": \"fleet\"}}}");
        java.util.Map<String, String> filled = s.withTelemetry(java.util.Map.of("OTEL_RESOURCE_ATTRIBUTES", "team=mine"));
        assertThat(filled).containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "https://otel.example.com:4318")
                .containsEntry("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=k+1%2C2")
                .containsEntry("OTEL_RESOURCE_ATTRIBUTES", "team=mine");
        assertThat(dev.agentwarden.export.OtlpTarget.of(null, filled, 1000).headers()).containsEntry("x-api-key", "k 1,2");
        assertThat(s.withTelemetry(java.util.Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")))
                .containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318");
        assertThat(ManagedSettings.NONE.withTelemetry(java.util.Map.of())).isEmpty();
        assertThatThrownBy(() -> ManagedSettings.parse("{\"telemetry\": {\"endpoint\": \"ftp://x\"}}"))
                .hasMessageContaining("telemetry.endpoint must be");
        assertThatThrownBy(() -> ManagedSettings.parse("{\"telemetry\": {\"endpont\": \"https://x\"}}"))
                .hasMessageContaining("unknown key 'telemetry.endpont'");
    }

    @Test
    void signers_takeTheKeygenPem_andRefuseAnythingElse(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        dev.agentwarden.release.KeyFiles.generate(dir, "team");
        String pem = java.nio.file.Files.readString(dir.resolve("team.pub.pem"));
        ManagedSettings s = ManagedSettings.parse(dev.agentwarden.json.Json.write(java.util.Map.of("signers", java.util.List.of(pem))));
        assertThat(s.signers()).hasSize(1).allSatisfy(k -> assertThat(k).hasSize(64));
        assertThatThrownBy(() -> ManagedSettings.parse("{\"signers\": [\"not a key\"]}")).hasMessageContaining("signers[0] is not an Ed25519 public key");
        assertThatThrownBy(() -> ManagedSettings.parse("{\"signers\": \"x\"}")).hasMessageContaining("signers must be a list");
    }

    @Test
    void managedCollector_turnsLiveExportOn_unlessTheUserChoseOtherwise() {
        ManagedSettings s = ManagedSettings.parse("{\"telemetry\": {\"endpoint\": \"https://otel.example:4318\"}}");
        java.util.Map<String, String> env = s.forLiveExport(java.util.Map.of(), "WARDEN_OTLP_LIVE");
        assertThat(env).containsEntry("WARDEN_OTLP_LIVE", "on")
                .containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "https://otel.example:4318");

        java.util.Map<String, String> own = s.forLiveExport(
                java.util.Map.of("WARDEN_OTLP_LIVE", "http://127.0.0.1:4318"), "WARDEN_OTLP_LIVE");
        assertThat(own).containsEntry("WARDEN_OTLP_LIVE", "http://127.0.0.1:4318");

        assertThat(ManagedSettings.NONE.forLiveExport(java.util.Map.of(), "WARDEN_OTLP_LIVE"))
                .doesNotContainKey("WARDEN_OTLP_LIVE");
    }
}
