package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11 item 5 at dispatch: a project manifest that extends the default keeps the default's guards. */
class ExtendsDefaultDispatchTest {
    @TempDir
    Path tmp;

    private static String bash(String command) {
        return Json.write(Map.of("session_id", "s", "hook_event_name", "PreToolUse", "tool_name", "Bash",
                "tool_input", Map.of("command", command)));
    }

    @Test
    void dispatch_trustedManifestExtendingDefault_defaultGuardsAndProjectConcernBothApply() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("p")).toRealPath();
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                extends: default
                concerns:
                  no-sudo:
                    script: builtin:deny-pattern
                    tools: [Bash]
                    patterns: [{match: 'sudo', reason: "NO-SUDO"}]
                platforms:
                  claude:
                    pre_tool_use: {drop: [spawn-guard]}
                  codex:
                    pre_tool_use: [no-sudo, block-no-verify]
                """);
        InProcessDispatch dispatch = new InProcessDispatch(tmp.resolve("cache"), MutableClock.at("2026-12-01T09:00:00Z"),
                Map.of("CLAUDE_PROJECT_DIR", project.toString()));
        dispatch.trust(project);

        InProcessDispatch.Response claudeNoVerify = dispatch.run("claude", bash("git commit --no-verify -m x"));
        InProcessDispatch.Response claudeSudo = dispatch.run("claude", bash("sudo ls"));
        InProcessDispatch.Response codexSudo = dispatch.run("codex", bash("sudo ls"), "--project-dir", project.toString());

        assertThat(claudeNoVerify.stdout()).as("the default's block-no-verify").contains("\"permissionDecision\":\"deny\"");
        assertThat(claudeNoVerify.stderr()).isEmpty();
        assertThat(claudeSudo.stdout()).as("claude's chain is the default's, minus spawn-guard").isEmpty();
        assertThat(codexSudo.stdout()).contains("NO-SUDO");
    }
}
