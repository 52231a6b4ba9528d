package dev.agentwarden.install;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a project install commits for Cursor, Windsurf, Augment and Cline: no path of this machine;
 * {@code warden} from PATH, else the host's own refusal with what to install. Cursor and Windsurf
 * have no binary that runs here, so their committed commands run in a real {@code sh -c} with the
 * payloads of their golden cases (written from the hosts' documentation) on stdin, and the answer
 * is checked against each host's documented protocol; Augment's through {@code bash -c}, as auggie
 * 0.36.0 runs a command holding a shell operator; Cline's hook file is executed as Cline does.
 */
class PortableCommittedHooksTest {
    @TempDir
    Path dir;

    private static final HookLauncher BLOCK = HookLauncher.portable(HookCommand.IfMissing.BLOCK);
    private static final HookLauncher WARN = HookLauncher.portable(HookCommand.IfMissing.WARN);
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @Test
    void cursor_wardenMissing_refusesWhatCanBeRefused_exit2WithTheInstallLine() throws Exception {
        for (String c : List.of("preToolUse-block-permissionDeny-fromDocs", "beforeShellExecution-block-permissionDeny-fromDocs",
                "beforeReadFile-block-permissionOnly-fromDocs", "beforeSubmitPrompt-block-continueFalse-fromDocs")) {
            Golden g = golden("cursor", c);
            Ran ran = run("sh", committed("cursor", g.event, BLOCK), g.payload, emptyPath());

            assertThat(ran.exit).as(c + ": Cursor reads exit 2 as a deny").isEqualTo(2);
            assertThat(ran.stderr).as(c).contains("warden: refused: warden is not installed on this machine")
                    .contains("npm install -g agent-warden");
        }
    }

    @Test
    void cursor_wardenMissing_eventsThatCannotRefuse_pass() throws Exception {
        for (String c : List.of("afterFileEdit-block-notDeliveredLoudly-fromDocs", "stop-block-followupMessage-fromDocs",
                "sessionStart-context-additionalContext-fromDocs")) {
            Golden g = golden("cursor", c);
            Ran ran = run("sh", committed("cursor", g.event, BLOCK), g.payload, emptyPath());

            assertThat(ran.exit).as(c).isZero();
            assertThat(ran.stdout).as(c).isEmpty();
            assertThat(ran.stderr).as(c).contains("warden: not checked");
        }
    }

    /** Cursor's entries on refusable events carry failClosed: a warning's exit 1 would be a deny there, so warn exits 0. */
    @Test
    void cursor_warn_exitsZeroWhereTheEntryFailsClosed() throws Exception {
        Golden g = golden("cursor", "beforeShellExecution-block-permissionDeny-fromDocs");
        byte[] file = committedFile("cursor", g.event, WARN);
        assertThat(new String(file, StandardCharsets.UTF_8)).contains("\"failClosed\": true");

        Ran ran = run("sh", committed("cursor", g.event, WARN), g.payload, emptyPath());

        assertThat(ran.exit).isZero();
        assertThat(ran.stderr).contains("warden is not installed on this machine");
    }

    @Test
    void windsurf_wardenMissing_preHooksExit2_postHooksPass_warnExit1() throws Exception {
        for (String c : List.of("pre_run_command-block-exit2-fromDocs", "pre_user_prompt-block-exit2-fromDocs")) {
            Golden g = golden("windsurf", c);
            Ran ran = run("sh", committed("windsurf", g.event, BLOCK), g.payload, emptyPath());

            assertThat(ran.exit).as(c + ": only exit 2 on a pre hook blocks in Cascade").isEqualTo(2);
            assertThat(ran.stderr).as(c + " (show_output shows it)").contains("npm install -g agent-warden");
        }
        Golden post = golden("windsurf", "post_run_command-block-notDeliveredLoudly-fromDocs");
        assertThat(run("sh", committed("windsurf", post.event, BLOCK), post.payload, emptyPath()).exit).isZero();
        Golden pre = golden("windsurf", "pre_run_command-block-exit2-fromDocs");
        assertThat(run("sh", committed("windsurf", pre.event, WARN), pre.payload, emptyPath()).exit)
                .as("a warning, which Cascade lets through").isEqualTo(1);
    }

    @Test
    void augment_wardenMissing_bashRunsIt_exit2OnPreToolUse() throws Exception {
        String payload = golden("augment", "PreToolUse-block-permissionDeny-fromShippedCode").payload;
        String command = committed("augment", "PreToolUse", BLOCK);
        assertThat(command).containsAnyOf(";", "&", ">");

        Ran ran = run("bash", command, payload, emptyPath());

        assertThat(ran.exit).isEqualTo(2);
        assertThat(ran.stderr).contains("npm install -g agent-warden");
    }

    @Test
    void wardenOnPath_getsThePayloadAndTheDispatchArguments() throws Exception {
        Path bin = fakeWarden();
        Golden g = golden("cursor", "beforeShellExecution-block-permissionDeny-fromDocs");

        Ran ran = run("sh", committed("cursor", g.event, BLOCK), g.payload, bin + ":/usr/bin:/bin");

        assertThat(ran.exit).isZero();
        assertThat(ran.stdout).startsWith("ran warden dispatch --host cursor --native-event beforeShellExecution\n")
                .contains("\"hook_event_name\"");
    }

    @Test
    void cline_committedFile_wardenMissing_cancelsPreToolUseWithTheInstallLine() throws Exception {
        HookFileInstaller cline = (HookFileInstaller) HostSetups.byId("cline").installer(Host.Scope.PROJECT);
        Path hook = executable("PreToolUse", cline.content(BLOCK, "PreToolUse"));
        String payload = golden("cline", "PreToolUse-allow-insideSubagent").payload;

        Ran ran = run(hook, payload, emptyPath());

        Map<String, Object> answer = Json.parseObject(ran.stdout.strip());
        assertThat(answer).containsEntry("cancel", Boolean.TRUE);
        assertThat((String) answer.get("errorMessage")).startsWith("[warden] warden is not installed on this machine")
                .contains("npm install -g agent-warden");
        assertThat(ran.stderr).contains("warden: refused");
    }

    @Test
    void cline_committedFile_wardenMissing_detachedEventsAndAllow_printNothing() throws Exception {
        HookFileInstaller cline = (HookFileInstaller) HostSetups.byId("cline").installer(Host.Scope.PROJECT);
        String payload = golden("cline", "PreToolUse-allow-insideSubagent").payload;
        Ran start = run(executable("TaskStart", cline.content(BLOCK, "TaskStart")), payload, emptyPath());
        Ran allow = run(executable("PreToolUse", cline.content(HookLauncher.portable(HookCommand.IfMissing.ALLOW),
                "PreToolUse")), payload, emptyPath());

        assertThat(start.stdout).isEmpty();
        assertThat(start.stderr).contains("not checked");
        assertThat(allow.stdout).as("Cline lets a tool run when its hook prints nothing").isEmpty();
    }

    @Test
    void cline_committedFile_namesNoPath_isRecognisedExactly_userFileKeepsTheLauncherPath() throws Exception {
        HookFileInstaller project = (HookFileInstaller) HostSetups.byId("cline").installer(Host.Scope.PROJECT);
        for (HookCommand.IfMissing mode : HookCommand.IfMissing.values()) {
            byte[] file = project.content(HookLauncher.portable(mode), "PreToolUse");
            String text = new String(file, StandardCharsets.UTF_8);

            assertThat(text).doesNotContain("/bin/warden", "/home", ".cache").contains("exec warden dispatch --host cline");
            assertThat(project.launcherOf(file, "PreToolUse")).isEqualTo(HookLauncher.portable(mode));
            assertThat(project.launcherOf(file, "PostToolUse")).as("another event's file").isNull();
            assertThat(project.launcherOf((text + "# mine\n").getBytes(StandardCharsets.UTF_8), "PreToolUse")).isNull();
        }
        byte[] user = project.content(HookLauncher.plain("/opt/warden/bin/warden"), "PreToolUse");
        assertThat(new String(user, StandardCharsets.UTF_8)).contains("launcher='/opt/warden/bin/warden'");
        assertThat(project.launcherOf(user, "PreToolUse")).isEqualTo(HookLauncher.plain("/opt/warden/bin/warden"));
    }

    @Test
    void hooksJson_portableEntries_idempotent_uninstallLeavesTheUsersBytes_lookalikesKept() throws Exception {
        byte[] mine = ("{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [{\"command\": \"./audit.sh\"}]\n"
                + "  }\n}\n").getBytes(StandardCharsets.UTF_8);
        Installer cursor = HostSetups.byId("cursor").installer(Host.Scope.PROJECT);
        List<Installer.Binding> bindings = List.of(new Installer.Binding("beforeShellExecution", null),
                new Installer.Binding("stop", null));

        byte[] once = cursor.install(mine, BLOCK, bindings);
        byte[] twice = cursor.install(once, BLOCK, bindings);
        byte[] warn = cursor.install(once, WARN, bindings);

        assertThat(twice).isEqualTo(once);
        assertThat(cursor.installedEvents(once)).containsExactly("beforeShellExecution", "stop");
        assertThat(cursor.installedEvents(warn)).containsExactly("beforeShellExecution", "stop");
        assertThat(cursor.entries(warn)).as("doctor reads the mode from each entry's command")
                .allSatisfy(e -> assertThat(ClaudeSettings.portableModes(e.target())).contains(HookCommand.IfMissing.WARN));
        assertThat(ClaudeSettings.portableModes(cursor.entries(once).get(0).target()))
                .as("a refusable event's command tells block from the others").containsExactly(HookCommand.IfMissing.BLOCK);
        assertThat(ClaudeSettings.portableModes(cursor.entries(once).get(1).target()))
                .as("stop cannot refuse: every mode writes it alike").hasSize(3);
        assertThat(cursor.uninstall(once)).isEqualTo(mine);
        assertThat(cursor.uninstall(warn)).isEqualTo(mine);
        String edited = new String(once, StandardCharsets.UTF_8).replace("exit 2", "exit 0");
        assertThat(cursor.lookalikes(edited.getBytes(StandardCharsets.UTF_8))).hasSize(1);
        assertThat(cursor.uninstall(edited.getBytes(StandardCharsets.UTF_8))).isNotEqualTo(mine);
        assertThat(new String(once, StandardCharsets.UTF_8)).doesNotContain("/bin/warden", "/home");
    }

    @Test
    void augment_portableEntries_recognised_andUninstalledToTheUsersBytes() throws Exception {
        byte[] mine = "{\n  \"model\": \"x\"\n}\n".getBytes(StandardCharsets.UTF_8);
        Installer augment = HostSetups.byId("augment").installer(Host.Scope.PROJECT);
        List<Installer.Binding> bindings = List.of(new Installer.Binding("PreToolUse", null));

        byte[] once = augment.install(mine, BLOCK, bindings);

        assertThat(augment.commandRunsInAShell()).isTrue();
        assertThat(HostSetups.byId("augment").installer(Host.Scope.USER).commandRunsInAShell()).isFalse();
        assertThat(augment.install(once, BLOCK, bindings)).isEqualTo(once);
        assertThat(augment.installedEvents(once)).containsExactly("PreToolUse");
        assertThat(augment.uninstall(once)).isEqualTo(mine);
    }

    private record Golden(String event, String payload) {
    }

    @SuppressWarnings("unchecked")
    private static Golden golden(String host, String name) throws IOException {
        Map<String, Object> c = Json.parseObject(Files.readString(GOLDEN.resolve(host).resolve(name + ".json")));
        return new Golden((String) c.get("native_event"), Json.write((Map<String, Object>) c.get("payload")));
    }

    /** The command a project install writes for {@code host}'s {@code event}, read back from the file it writes. */
    private static String committed(String host, String event, HookLauncher launcher) throws Exception {
        byte[] file = committedFile(host, event, launcher);
        String command = ClaudeSettings.command(launcher, host, event);
        assertThat(new String(file, StandardCharsets.UTF_8)).contains(Json.write(command));
        return command;
    }

    private static byte[] committedFile(String host, String event, HookLauncher launcher) throws Exception {
        return HostSetups.byId(host).installer(Host.Scope.PROJECT).install("{}\n".getBytes(StandardCharsets.UTF_8), launcher,
                List.of(new Installer.Binding(event, null)));
    }

    private Path fakeWarden() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path warden = bin.resolve("warden");
        WardenProcess.writeScript(warden, "#!/bin/sh\necho \"ran warden $*\"\ncat\nexit 0\n", "rwx------");
        return bin;
    }

    private Path executable(String name, byte[] content) throws IOException {
        Path hooks = Files.createDirectories(dir.resolve("hooks"));
        Path file = hooks.resolve(name);
        return WardenProcess.writeExecutable(file, content, "rwx------");
    }

    private String emptyPath() throws IOException {
        return Files.createDirectories(dir.resolve("empty")) + ":/usr/bin:/bin";
    }

    private record Ran(int exit, String stdout, String stderr) {
    }

    private Ran run(String shell, String command, String stdin, String path) throws Exception {
        return run(List.of(shell, "-c", command), stdin, path);
    }

    private Ran run(Path file, String stdin, String path) throws Exception {
        return run(List.of(file.toString()), stdin, path);
    }

    private Ran run(List<String> argv, String stdin, String path) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
        pb.environment().put("PATH", path);
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        } catch (IOException closedEarly) {
            // the command may exit before reading its stdin (warden missing): that is what it does
        }
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
