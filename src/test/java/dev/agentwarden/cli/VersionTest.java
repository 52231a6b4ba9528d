package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code warden --version}: the version and commit the build filtered into build.properties. */
class VersionTest {

    @Test
    void version_fromTheBuild_printsVersionAndCommit() {
        CliRun r = CliRun.of("--version");

        assertThat(r.exit()).isZero();
        // was "warden dev": the shaded jar has no Implementation-Version
        assertThat(r.out().strip()).matches("warden \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{12}|unknown)\\)");
    }

    @Test
    void versionCommand_printsWhatDashDashVersionPrints() {
        CliRun command = CliRun.of("version");
        CliRun option = CliRun.of("--version");

        assertThat(command.exit()).isZero();
        assertThat(command.out()).isEqualTo(option.out()).startsWith("warden ").contains(" (commit ");
        assertThat(command.err()).isEmpty();
    }

    @Test
    void version_unfilteredOrEmpty_isUnknown() {
        assertThat(WardenCli.Version.known("${warden.commit}")).isEqualTo("unknown");
        assertThat(WardenCli.Version.known("")).isEqualTo("unknown");
        assertThat(WardenCli.Version.known(null)).isEqualTo("unknown");
        assertThat(WardenCli.Version.known("0.1.0")).isEqualTo("0.1.0");
    }
}
