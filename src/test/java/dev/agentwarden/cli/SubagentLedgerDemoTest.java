package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubagentLedgerDemoTest {

    @Test
    void run_inProcess_recordsDerivesAndEnforces(@TempDir Path work) throws Exception {
        StringWriter out = new StringWriter();

        new SubagentLedgerDemo().run(new DemoEnv(new PrintWriter(out, true), work, null, null, System.getenv()));

        String text = out.toString();
        assertThat(text).contains("transport: in-process dispatch")
                .contains("warden ledger verify: intact, 12 chain lines, 0 problem(s)")
                .contains("caller-open-record").contains("observed")
                .contains("threshold p99+1 = 4 (n=4)")
                .contains("DENY: [warden] spawn refused: 4 subagents are already open in this session, threshold max_concurrent=4");
    }
}
