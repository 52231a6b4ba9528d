package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.TestTrust;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 item 12: a chain entry naming an unknown concern, or one concern twice, switched the
 * whole manifest off ("manifest unusable", and with no last good manifest the event was allowed).
 * Now the entry is skipped loudly (stderr, and {@code chain_skipped} in the decision line) and the
 * rest of the chain runs, as agent-config skips an unknown name with a warning.
 */
class ChainEntrySkippedTest {
    @TempDir
    Path tmp;

    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-rm-rf:
                script: builtin:deny-pattern
                patterns: [{match: 'rm -rf', reason: no rm -rf here}]
            platforms:
              claude:
                pre_tool_use: [no-rm-rf, no-such-concern, no-rm-rf]
            """;

    @Test
    void issue28_unknownAndDuplicateChainEntries_rmRfStillBlocked_skipNamedOnStderrAndInTheDecisionLog() throws IOException {
        Path project = Files.createDirectories(tmp.resolve("proj"));
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST);
        InProcessDispatch dispatch = new InProcessDispatch(tmp.resolve("cache"), TestTrust.CLOCK);
        dispatch.trust(project);

        InProcessDispatch.Response r = dispatch.run("claude", rmRf(project), "--project-dir", project.toString());

        assertThat(r.stdout()).as(r.stderr()).contains("\"permissionDecision\":\"deny\"").contains("no rm -rf here");
        assertThat(r.stderr()).doesNotContain("manifest unusable")
                .contains(project.resolve(".warden/manifest.yaml") + ": platforms.claude.pre_tool_use: skipped"
                        + " no-such-concern: unknown concern (line 8); no-rm-rf: listed twice, runs once (line 8);"
                        + " the rest of the chain ran");
        Map<String, Object> line = lastDecision(project);
        assertThat(line).containsEntry("verdict", "block")
                .containsEntry("chain_skipped", List.of("no-such-concern: unknown concern (line 8)",
                        "no-rm-rf: listed twice, runs once (line 8)"));
    }

    @Test
    void issue28_chainEntryMistake_stillLintErrorWithFileAndLine() throws IOException {
        Path manifest = Files.writeString(tmp.resolve("m.yaml"), MANIFEST);

        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = dev.agentwarden.cli.WardenCli.execute(new String[] {"manifest", "lint", manifest.toString()},
                new java.io.PrintWriter(out), new java.io.PrintWriter(err));

        assertThat(code).isEqualTo(1);
        assertThat(out.toString()).contains(manifest + ":8: error: platforms.claude.pre_tool_use: unknown concern"
                + " 'no-such-concern'").contains(manifest + ":8: error: platforms.claude.pre_tool_use: concern 'no-rm-rf'"
                + " listed twice");
    }

    @Test
    void cleanChain_writesNoChainSkippedField() throws IOException {
        Path project = Files.createDirectories(tmp.resolve("proj"));
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST.replace(", no-such-concern, no-rm-rf", ""));
        InProcessDispatch dispatch = new InProcessDispatch(tmp.resolve("cache"), TestTrust.CLOCK);
        dispatch.trust(project);

        InProcessDispatch.Response r = dispatch.run("claude", rmRf(project), "--project-dir", project.toString());

        assertThat(r.stderr()).doesNotContain("skipped");
        assertThat(lastDecision(project)).containsEntry("verdict", "block").doesNotContainKey("chain_skipped");
    }

    private static String rmRf(Path project) {
        return HostPayloads.captured("claude-code-2.1.197/agent-05-PreToolUse.json", project.toString())
                .replace("echo from-sub", "rm -rf build");
    }

    private static Map<String, Object> lastDecision(Path project) throws IOException {
        Path dir = project.resolve(".warden/state/decisions");
        try (var files = Files.list(dir)) {
            Path segment = files.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow();
            List<String> lines = Files.readAllLines(segment);
            return Json.parseObject(lines.get(lines.size() - 1));
        }
    }
}
