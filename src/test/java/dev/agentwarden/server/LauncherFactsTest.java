package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.dispatch.DispatchMain;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The facts bin/warden shares with the JVM are stated once, in {@link LauncherFacts}, not repeated in the script. */
class LauncherFactsTest {
    @Test
    void launcher_sharedFacts_comeFromTheGeneratedFileNotTheScript() throws Exception {
        String facts = LauncherFacts.shell();
        assertThat(facts).contains("fact_max_payload_bytes=" + DispatchMain.DEFAULT_MAX_PAYLOAD_BYTES + "\n")
                .contains("fact_stdin_timeout_ms=" + DispatchMain.DEFAULT_STDIN_TIMEOUT_MS + "\n")
                .contains("fact_greeting='" + WardenServer.GREETING + "'\n")
                .contains("fact_endpoint_fields='" + Resident.Endpoint.FIELDS + "'\n")
                .contains("fact_hook_socket_suffix='" + HookSocket.SUFFIX + "'\n");
        String script = Files.readString(Path.of("bin/warden"));
        assertThat(script).doesNotContain(Integer.toString(DispatchMain.DEFAULT_MAX_PAYLOAD_BYTES))
                .doesNotContain("warden-resident/").doesNotContain("-XX:TieredStopAtLevel=1").doesNotContain("-Xmx256m")
                .contains(". \"$facts\"");
    }

    @Test
    void launcher_ledgerStatsAndGuardDerive_addTheLeanScanFlags() throws Exception {
        assertThat(LauncherFacts.shell()).contains("fact_lean_scan_flags=(-XX:TieredStopAtLevel=1)\n");
        assertThat(Files.readString(Path.of("bin/warden")))
                .contains("\"ledger stats\"|\"guard derive\") flags+=(\"${fact_lean_scan_flags[@]}\")");
    }

    @Test
    void launcher_archiveProbe_comesFromTheDemoHostsTrainingNotTheScript() throws Exception {
        String[] probe = dev.agentwarden.host.Hosts.demo().training().probe();
        assertThat(LauncherFacts.shell()).contains("fact_probe=('" + dev.agentwarden.host.Hosts.demo().id() + "' '"
                + probe[0] + "' '" + probe[1] + "')\n");
        assertThat(Files.readString(Path.of("bin/warden"))).doesNotContain(probe[0]).doesNotContain("--host claude")
                .contains("--host \"${fact_probe[0]:-}\"");
    }

    @Test
    void launcher_generatedFactsFile_passesShellcheck() throws Exception {
        boolean found = false;
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            found |= !d.isEmpty() && Files.isExecutable(Path.of(d, "shellcheck"));
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(found, "no shellcheck on PATH (.ci/run installs it)");
        Path facts = Files.createTempFile("launcher-facts", ".sh");
        try {
            Files.writeString(facts, LauncherFacts.shell());
            Process p = new ProcessBuilder("shellcheck", facts.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(out).isZero();
        } finally {
            Files.deleteIfExists(facts);
        }
    }
}
