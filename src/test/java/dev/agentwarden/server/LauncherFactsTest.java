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
}
