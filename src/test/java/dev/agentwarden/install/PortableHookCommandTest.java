package dev.agentwarden.install;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The portable hook command a project-scope install commits: no path of this machine in it; it runs
 * {@code warden} from PATH, else answers the host itself in the host's protocol. Run through a real
 * {@code sh -c} and {@code bash -c}, as the hosts run it.
 */
class PortableHookCommandTest {
    @TempDir
    Path dir;

    private static final HookLauncher BLOCK = HookLauncher.portable(HookCommand.IfMissing.BLOCK);

    @Test
    void portableCommand_namesNoPathOfThisMachine() {
        String command = ClaudeSettings.command(BLOCK, "claude", "PreToolUse");

        assertThat(command).startsWith("command -v warden >/dev/null 2>&1 && exec warden dispatch --host claude"
                + " --native-event PreToolUse; ");
        assertThat(command).doesNotContain("/home", "/bin/warden", "/tmp", ".cache");
    }

    @Test
    void wardenMissing_claudePreToolUse_exit2WithWhatToInstall() throws Exception {
        Ran ran = run("sh", ClaudeSettings.command(BLOCK, "claude", "PreToolUse"), emptyPath());

        assertThat(ran.exit).isEqualTo(2);
        assertThat(ran.stdout).isEmpty();
        assertThat(ran.stderr).contains("warden is not installed on this machine").contains("npm install -g agent-warden");
    }

    @Test
    void wardenMissing_claudeEventsThatCannotRefuse_passWithANote() throws Exception {
        for (String event : List.of("PostToolUse", "SessionStart", "Stop")) {
            Ran ran = run("sh", ClaudeSettings.command(BLOCK, "claude", event), emptyPath());

            assertThat(ran.exit).as(event).isZero();
            assertThat(ran.stderr).as(event).contains("not checked").contains("npm install -g agent-warden");
        }
    }

    @Test
    void wardenMissing_claudePrompt_refused() throws Exception {
        Ran ran = run("sh", ClaudeSettings.command(BLOCK, "claude", "UserPromptSubmit"), emptyPath());

        assertThat(ran.exit).isEqualTo(2);
    }

    @Test
    void wardenMissing_warnAndAllow_letTheToolCallThrough() throws Exception {
        Ran warn = run("sh", ClaudeSettings.command(HookLauncher.portable(HookCommand.IfMissing.WARN), "claude",
                "PreToolUse"), emptyPath());
        Ran allow = run("sh", ClaudeSettings.command(HookLauncher.portable(HookCommand.IfMissing.ALLOW), "claude",
                "PreToolUse"), emptyPath());

        assertThat(warn.exit).isEqualTo(1);
        assertThat(warn.stderr).contains("warden is not installed");
        assertThat(allow.exit).isZero();
    }

    @Test
    void wardenMissing_copilotPreToolUse_denyJsonOnStdoutExit0() throws Exception {
        Ran ran = run("bash", ClaudeSettings.command(BLOCK, "copilot", "preToolUse"), emptyPath());

        assertThat(ran.exit).isZero();
        Map<String, Object> answer = Json.parseObject(ran.stdout.strip());
        assertThat(answer).containsEntry("permissionDecision", "deny");
        assertThat((String) answer.get("permissionDecisionReason")).contains("npm install -g agent-warden");
    }

    @Test
    void wardenOnPath_runsItWithTheDispatchArguments() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path warden = bin.resolve("warden");
        WardenProcess.writeScript(warden, "#!/bin/sh\necho \"ran warden $*\"\nexit 0\n", "rwx------");

        Ran ran = run("sh", ClaudeSettings.command(BLOCK, "claude", "PreToolUse"), bin + ":/usr/bin:/bin");

        assertThat(ran.exit).isZero();
        assertThat(ran.stdout.strip()).isEqualTo("ran warden dispatch --host claude --native-event PreToolUse");
    }

    @Test
    void portableCommand_recognisedExactlyForEachMode_andItsEventAndHostOnly() {
        for (HookCommand.IfMissing mode : HookCommand.IfMissing.values()) {
            String command = ClaudeSettings.command(HookLauncher.portable(mode), "gemini", "BeforeTool");

            assertThat(ClaudeSettings.isWardenCommand(command, "BeforeTool", Set.of("gemini"))).isTrue();
            assertThat(ClaudeSettings.portableMode(command)).isEqualTo(mode);
            assertThat(ClaudeSettings.isWardenCommand(command, "AfterTool", Set.of("gemini"))).isFalse();
            assertThat(ClaudeSettings.isWardenCommand(command, "BeforeTool", Set.of("qwen"))).isFalse();
        }
        String command = ClaudeSettings.command(BLOCK, "claude", "PreToolUse");
        assertThat(ClaudeSettings.isWardenCommand(command + " ", "PreToolUse", Set.of("claude"))).isFalse();
        assertThat(ClaudeSettings.isWardenCommand(command.replace("exit 2", "exit 0"), "PreToolUse", Set.of("claude")))
                .isFalse();
        assertThat(ClaudeSettings.isWardenCommand(command.replace("exec warden", "exec /tmp/warden"), "PreToolUse",
                Set.of("claude"))).isFalse();
    }

    @Test
    void portableInstall_twiceIsIdempotent_uninstallLeavesTheUsersBytes() throws Exception {
        byte[] mine = ("{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n"
                + "  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\","
                + " \"command\": \"echo mine\"}]}]}\n}\n").getBytes(StandardCharsets.UTF_8);
        List<Installer.Binding> bindings = List.of(new Installer.Binding("PreToolUse", "Bash"),
                new Installer.Binding("Stop", null));

        byte[] once = ClaudeSettings.install(mine, BLOCK, "claude", bindings);
        byte[] twice = ClaudeSettings.install(once, BLOCK, "claude", bindings);
        byte[] fast = ClaudeSettings.install(once, HookLauncher.fast("/x/hook/bin/warden", "/opt/w/bin/warden"),
                "claude", bindings);

        assertThat(twice).isEqualTo(once);
        assertThat(ClaudeSettings.installedEvents(once, "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(ClaudeSettings.lookalikes(once, "claude")).isEmpty();
        assertThat(new String(fast, StandardCharsets.UTF_8)).doesNotContain("command -v warden");
        assertThat(ClaudeSettings.uninstall(once, "claude")).isEqualTo(mine);
        assertThat(ClaudeSettings.uninstall(fast, "claude")).isEqualTo(mine);
    }

    private String emptyPath() throws IOException {
        return Files.createDirectories(dir.resolve("empty")) + ":/usr/bin:/bin";
    }

    private record Ran(int exit, String stdout, String stderr) {
    }

    private Ran run(String shell, String command, String path) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(shell, "-c", command).directory(dir.toFile());
        pb.environment().put("PATH", path);
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
