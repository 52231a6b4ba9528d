package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import dev.agentwarden.testing.WardenProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code warden install} / {@code uninstall} through the packaged jar, against temporary project
 * and home directories ({@code HOME} is the user scope). Archive training is skipped
 * ({@code --no-train}): it only affects start-up speed.
 */
@Execution(ExecutionMode.CONCURRENT)
class InstallCommandIT {
    private static final String USER_SETTINGS = """
            {
              "model": "opus",
              "hooks": {
                "PreToolUse": [
                  {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-bash.sh"}]}
                ],
                "SessionEnd": [{"hooks": [{"type": "command", "command": "say bye"}]}]
              }
            }
            """;

    /**
     * The project's manifest in force ({@code .warden/manifest.yaml}), so the bindings expected
     * here do not move with the shipped default manifest.
     */
    private static final String PROJECT_MANIFEST = """
            schema_version: 1
            concerns:
              no-verify: {script: builtin:block-no-verify, tools: [Bash]}
              note: {script: builtin:context-note, message: hi}
            platforms:
              claude:
                pre_tool_use: [no-verify]
                stop: [note]
              cowork:
                pre_tool_use: [no-verify]
              codex:
                pre_tool_use: [no-verify]
                subagent_start: [note]
            native_event_aliases:
              claude: {PreToolUse: pre_tool_use, Stop: stop, SessionStart: session_start}
              cowork: {PreToolUse: pre_tool_use, Stop: stop}
              codex: {PreToolUse: pre_tool_use, SubagentStart: subagent_start, Stop: stop}
            """;

    @TempDir
    Path tmp;

    private Path project;
    private Path home;
    private String launcher;

    @BeforeEach
    void dirs(TestInfo test) throws Exception {
        project = Files.createDirectories(tmp.resolve("project"));
        home = Files.createDirectories(tmp.resolve("home"));
        launcher = WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString();
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), PROJECT_MANIFEST);
        if (!test.getTestMethod().orElseThrow().getName().equals("install_default_withACompiler_runsTheCompiledHookWithTheLauncherBehindIt")) {
            CompiledHook.seed(tmp.resolve("cache")); // built once for the class; that case builds its own
        }
    }

    @Test
    void install_noFastHook_hooksRunTheLauncher() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.local.json"), USER_SETTINGS);

        WardenProcess.Result r = warden("install", "--host", "claude", "--scope", "local", "--no-train", "--no-fast-hook");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(Files.readString(settings)).contains("\"command\": \"" + launcher + " dispatch --host claude --native-event PreToolUse\"");
        assertThat(r.stdout()).doesNotContain("compiled hook");
    }

    @Test
    void install_default_withACompiler_runsTheCompiledHookWithTheLauncherBehindIt() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler: nothing to build");
        Path settings = writeSettings(project.resolve(".claude/settings.local.json"), USER_SETTINGS);

        WardenProcess.Result r = warden("install", "--host", "claude", "--scope", "local", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(hookLauncher()).isNotEqualTo(launcher);
        assertThat(Files.readString(settings)).contains("\"command\": \"[ -x " + hookLauncher() + " ] && exec " + hookLauncher()
                + " dispatch --host claude --native-event PreToolUse; exec " + launcher + " dispatch --host claude --native-event PreToolUse\"");
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(settings), "claude")).containsExactly("PreToolUse", "Stop");
        WardenProcess.Result doctor = warden("doctor", "--host", "claude", "--scope", "local");
        assertThat(doctor.stdout()).as(doctor.stderr()).contains("as `warden install` would write them now");
    }

    @Test
    void fastHookCommand_cacheDeleted_nextEventStillGetsWardensDeny() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler: nothing to build");
        Path settings = writeSettings(project.resolve(".claude/settings.local.json"), USER_SETTINGS);
        assertThat(warden("install", "--host", "claude", "--scope", "local", "--no-train").exitCode()).isZero();
        String command = commandOf(settings, "PreToolUse");
        String hook = hookLauncher();
        assertThat(command).startsWith("[ -x " + hook + " ]");
        Map<String, String> env = Map.of("HOME", home.toString(), "WARDEN_CACHE_DIR", tmp.resolve("cache").toString(),
                "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        byte[] noVerify = ("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":"
                + "{\"command\":\"git commit --no-verify -m x\"}}").getBytes(StandardCharsets.UTF_8);
        try {
            WardenProcess.Result before = WardenProcess.runProgram(Path.of("/bin/sh"), List.of("-c", command), env, noVerify, project);
            assertThat(before.stdout()).as(before.stderr()).contains("\"permissionDecision\":\"deny\"");

            deleteTree(tmp.resolve("cache/hook"));
            assertThat(Path.of(hook)).doesNotExist();

            // as Claude Code runs it: sh -c
            WardenProcess.Result after = WardenProcess.runProgram(Path.of("/bin/sh"), List.of("-c", command), env, noVerify, project);
            assertThat(after.exitCode()).as(after.stderr()).isZero();
            assertThat(after.stdout()).contains("\"permissionDecision\":\"deny\"");
            WardenProcess.Result doctor = warden("doctor", "--host", "claude", "--scope", "local");
            assertThat(doctor.stdout()).contains("which is gone: each event falls back to " + launcher);
        } finally {
            WardenProcess.runLauncher(List.of("resident", "stop"), env, new byte[0], project);
        }
    }

    private static String commandOf(Path settings, String event) throws Exception {
        for (dev.agentwarden.install.Installer.Entry e : ClaudeSettings.wardenEntries(Files.readAllBytes(settings), "claude")) {
            if (e.nativeEvent().equals(event)) {
                return e.target();
            }
        }
        throw new AssertionError("no Warden entry for " + event + " in " + settings);
    }

    private static void deleteTree(Path dir) throws Exception {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The command install writes for {@code host}'s {@code event}: the compiled hook first where one was built. */
    /** The committed (project-scope) command: warden from PATH, else the host's own refusal. */
    private static String expectedCommand(String host, String event) {
        return ClaudeSettings.command(HookLauncher.portable(HookCommand.IfMissing.BLOCK), host, event)
                .replace("\\", "\\\\");
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void install_projectScope_addsBoundEventsKeepsUserHooks() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);

        WardenProcess.Result r = warden("install", "--host", "claude", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("installed 2 hook(s) for claude in " + settings).contains("PreToolUse  matcher=Bash")
                .contains("  Stop  (added)\n");
        byte[] after = Files.readAllBytes(settings);
        assertThat(ClaudeSettings.installedEvents(after, "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(new String(ClaudeSettings.uninstall(after, "claude"), StandardCharsets.UTF_8)).isEqualTo(USER_SETTINGS);
        assertThat(Files.readString(settings)).contains("\"command\": \"" + expectedCommand("claude", "PreToolUse") + "\"");
        assertThat(Files.exists(home.resolve(".claude/settings.json"))).as("user scope untouched").isFalse();
    }

    @Test
    void install_inProject_trustsTheManifestItSees() throws Exception {
        WardenProcess.Result r = warden("install", "--host", "claude", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("trusted .warden/manifest.yaml (sha256:");
        WardenProcess.Result show = warden("trust", "--show");
        assertThat(show.exitCode()).as(show.stdout() + show.stderr()).isZero();
        assertThat(show.stdout()).contains("in force as trusted");
        assertThat(Files.isDirectory(home.resolve(".local/state/agent-warden/trust"))).isTrue();
    }

    @Test
    void install_dryRun_trustsNothing() throws Exception {
        WardenProcess.Result r = warden("install", "--host", "claude", "--dry-run", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(warden("trust", "--show").exitCode()).isEqualTo(1);
        assertThat(Files.exists(home.resolve(".local/state/agent-warden"))).isFalse();
    }

    @Test
    void install_twice_byteIdentical() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);

        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        byte[] once = Files.readAllBytes(settings);
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();

        assertThat(Files.readAllBytes(settings)).isEqualTo(once);
    }

    @Test
    void install_manifestOption_bindsEveryBoundEventWithSafeMatchers() throws Exception {
        Path manifest = Path.of(InstallCommandIT.class.getResource("/golden/golden-manifest.yaml").toURI());

        WardenProcess.Result r = warden("install", "--host", "claude", "--manifest", manifest.toString(), "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        byte[] after = Files.readAllBytes(project.resolve(".claude/settings.json"));
        // PreSkillShellCommand too: the corpus manifest names it in its own aliases (install leaves it out otherwise).
        assertThat(ClaudeSettings.installedEvents(after, "claude")).containsExactlyInAnyOrder("PermissionRequest", "PostToolUse",
                "PreCompact", "PreSkillShellCommand", "PreToolUse", "SessionEnd", "SessionStart", "Stop", "SubagentStart",
                "SubagentStop", "UserPromptSubmit");
        assertThat(r.stdout()).contains("PreToolUse  matcher=*").contains("PostToolUse  matcher=*")
                .doesNotContain("Notification");
    }

    @Test
    void install_userScope_writesHomeSettingsForEveryAliasedEvent() throws Exception {
        Path settings = writeSettings(home.resolve(".claude/settings.json"), USER_SETTINGS);

        WardenProcess.Result r = warden("install", "--host", "claude", "--scope", "user", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        byte[] after = Files.readAllBytes(settings);
        assertThat(ClaudeSettings.installedEvents(after, "claude")).containsExactly("PreToolUse", "SessionStart", "Stop");
        assertThat(r.stdout()).contains("PreToolUse  matcher=*");
        assertThat(new String(ClaudeSettings.uninstall(after, "claude"), StandardCharsets.UTF_8)).isEqualTo(USER_SETTINGS);
        assertThat(Files.exists(project.resolve(".claude"))).isFalse();
    }

    @Test
    void install_cowork_forcedToUserScope() throws Exception {
        WardenProcess.Result r = warden("install", "--host", "cowork", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Path settings = home.resolve(".claude/settings.json");
        assertThat(r.stdout()).contains("for cowork in " + settings);
        assertThat(Files.readString(settings)).contains("dispatch --host cowork --native-event PreToolUse");
        assertThat(Files.exists(project.resolve(".claude"))).isFalse();
    }

    @Test
    void install_dryRun_printsAndWritesNothing() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);
        byte[] before = Files.readAllBytes(settings);

        WardenProcess.Result r = warden("install", "--host", "claude", "--dry-run");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("# would write " + settings + "\n");
        String printed = r.stdout().substring(r.stdout().indexOf('\n') + 1);
        assertThat(ClaudeSettings.installedEvents(printed.getBytes(StandardCharsets.UTF_8), "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(Files.readAllBytes(settings)).isEqualTo(before);
        try (Stream<Path> files = Files.list(settings.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("settings.json");
        }
    }

    @Test
    void install_corruptSettings_refusedClearlyAndLeftByteIdentical() throws Exception {
        byte[] corrupt = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n".getBytes(StandardCharsets.UTF_8);
        Path settings = Files.write(Files.createDirectories(project.resolve(".claude")).resolve("settings.json"), corrupt);

        WardenProcess.Result install = warden("install", "--host", "claude", "--no-train");
        WardenProcess.Result uninstall = warden("uninstall", "--host", "claude");

        assertThat(install.exitCode()).isEqualTo(2);
        assertThat(install.stderr()).contains(settings + " is not valid JSON").contains("left unchanged").contains("[settings_not_json]")
                .doesNotContain("Exception");
        assertThat(uninstall.exitCode()).isEqualTo(2);
        assertThat(uninstall.stderr()).contains("[settings_not_json]");
        assertThat(Files.readAllBytes(settings)).isEqualTo(corrupt);
    }

    @Test
    void uninstall_removesOnlyWardensEntries() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();

        WardenProcess.Result r = warden("uninstall", "--host", "claude");
        WardenProcess.Result again = warden("uninstall", "--host", "claude");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("removed Warden hooks for [PreToolUse, Stop] from " + settings);
        assertThat(Files.readString(settings)).as("the user's bytes exactly").isEqualTo(USER_SETTINGS);
        assertThat(again.exitCode()).isZero();
        assertThat(again.stdout()).contains("no Warden hooks in " + settings);
    }

    @Test
    void uninstall_userScope_leavesProjectInstall() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        assertThat(warden("install", "--host", "claude", "--scope", "user", "--no-train").exitCode()).isZero();

        assertThat(warden("uninstall", "--host", "claude", "--scope", "user").exitCode()).isZero();

        // install created the user settings and uninstall left them empty: gone again
        assertThat(home.resolve(".claude/settings.json")).doesNotExist();
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(project.resolve(".claude/settings.json")), "claude"))
                .containsExactly("PreToolUse", "Stop");
    }

    /**
     * Several installer processes and this JVM's own edits race on one settings file: the file
     * lock orders them, so the user's edits all survive and Warden's entries appear once.
     */
    @Test
    void install_concurrentProcessesAndEdits_noEntryLost() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);
        List<CompletableFuture<WardenProcess.Result>> installs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            installs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return warden("install", "--host", "claude", "--no-train");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        SettingsFile file = new SettingsFile(settings, tmp.resolve("cache/locks"), null);
        CompletableFuture<Void> all = CompletableFuture.allOf(installs.toArray(CompletableFuture[]::new));
        int edits = 0;
        while (!all.isDone() || edits < 40) {
            String key = "edit-" + edits++;
            file.update(doc -> JsonSplice.appendMember(doc, JsonSpans.parse(doc), key, true));
        }
        for (CompletableFuture<WardenProcess.Result> f : installs) {
            WardenProcess.Result r = f.get(WardenProcess.TIMEOUT_SECONDS * 2, TimeUnit.SECONDS);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
        }

        Map<String, Object> after = Json.parseObject(Files.readString(settings));
        assertThat(after.keySet().stream().filter(k -> k.startsWith("edit-"))).hasSize(edits);
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(settings), "claude")).containsExactly("PreToolUse", "Stop");
        List<?> preToolUse = (List<?>) ((Map<?, ?>) after.get("hooks")).get("PreToolUse");
        assertThat(preToolUse).as("the user's group and Warden's, once").hasSize(2);
    }

    @Test
    void install_codex_writesProjectHooksJsonKeepsUserHooksIdempotently() throws Exception {
        Path hooksJson = writeSettings(project.resolve(".codex/hooks.json"), USER_SETTINGS);

        WardenProcess.Result r = warden("install", "--host", "codex", "--no-train");
        byte[] once = Files.readAllBytes(hooksJson);
        WardenProcess.Result again = warden("install", "--host", "codex", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("installed 2 hook(s) for codex in " + hooksJson).contains("PreToolUse  matcher=Bash")
                .contains("  SubagentStart  (added)\n");
        byte[] after = Files.readAllBytes(hooksJson);
        assertThat(ClaudeSettings.installedEvents(after, "codex")).containsExactly("PreToolUse", "SubagentStart");
        assertThat(Files.readString(hooksJson))
                .contains("\"command\": \"" + expectedCommand("codex", "PreToolUse") + "\"")
                .contains("\"type\": \"command\"").contains("\"timeout\": 60");
        assertThat(new String(ClaudeSettings.uninstall(after, "codex"), StandardCharsets.UTF_8)).isEqualTo(USER_SETTINGS);
        assertThat(again.exitCode()).isZero();
        assertThat(Files.readAllBytes(hooksJson)).as("second install byte-identical").isEqualTo(once);
        assertThat(Files.exists(project.resolve(".claude"))).as("Claude's settings untouched").isFalse();
    }

    @Test
    void install_codexUserScope_writesCodexHomeHooksJson() throws Exception {
        WardenProcess.Result r = warden("install", "--host", "codex", "--scope", "user", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Path hooksJson = home.resolve(".codex/hooks.json");
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(hooksJson), "codex"))
                .containsExactly("PreToolUse", "Stop", "SubagentStart");
        assertThat(Files.exists(project.resolve(".codex"))).isFalse();
    }

    @Test
    void install_codexCorruptHooksJson_refusedAndLeftByteIdentical() throws Exception {
        byte[] corrupt = "{\"hooks\": {\"PreToolUse\": [".getBytes(StandardCharsets.UTF_8);
        Path hooksJson = Files.write(Files.createDirectories(project.resolve(".codex")).resolve("hooks.json"), corrupt);

        WardenProcess.Result install = warden("install", "--host", "codex", "--no-train");
        WardenProcess.Result uninstall = warden("uninstall", "--host", "codex");

        assertThat(install.exitCode()).isEqualTo(2);
        assertThat(install.stderr()).contains(hooksJson + " is not valid JSON").contains("[settings_not_json]")
                .doesNotContain("Exception");
        assertThat(uninstall.exitCode()).isEqualTo(2);
        assertThat(Files.readAllBytes(hooksJson)).isEqualTo(corrupt);
    }

    @Test
    void uninstall_codex_removesOnlyWardensEntries() throws Exception {
        Path hooksJson = writeSettings(project.resolve(".codex/hooks.json"), USER_SETTINGS);
        assertThat(warden("install", "--host", "codex", "--no-train").exitCode()).isZero();

        WardenProcess.Result r = warden("uninstall", "--host", "codex");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("removed Warden hooks for [PreToolUse, SubagentStart] from " + hooksJson);
        assertThat(Files.readString(hooksJson)).as("the user's bytes exactly").isEqualTo(USER_SETTINGS);
    }

    // --- Issue 10: install and uninstall lose no user content ---

    /** Regression: "hooks" written as a string was replaced, and the user's my-linter hook disappeared. */
    @Test
    void install_hooksIsString_refusesAndLeavesFileUntouched() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), "{\"hooks\": \"my-linter --fix\"}\n");
        byte[] before = Files.readAllBytes(settings);

        WardenProcess.Result r = warden("install", "--host", "claude", "--no-train");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains(settings.toString()).contains("\"hooks\" is a string").contains("[settings_hooks_not_object]")
                .doesNotContain("Exception");
        assertThat(Files.readAllBytes(settings)).isEqualTo(before);
    }

    /** Regression: "hooks" written as an array was replaced. */
    @Test
    void install_hooksIsArray_refusesAndLeavesFileUntouched() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"),
                "{\"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}\n");
        byte[] before = Files.readAllBytes(settings);

        WardenProcess.Result r = warden("install", "--host", "claude", "--no-train");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("\"hooks\" is a list").contains("[settings_hooks_not_object]");
        assertThat(Files.readAllBytes(settings)).isEqualTo(before);
    }

    /** Regression: an event entry written as an object (not a list of groups) was replaced, in Codex's hooks.json too. */
    @Test
    void install_codexEventEntryIsObject_refusesAndLeavesFileUntouched() throws Exception {
        Path hooksJson = writeSettings(project.resolve(".codex/hooks.json"),
                "{\"hooks\": {\"PreToolUse\": {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}}}\n");
        byte[] before = Files.readAllBytes(hooksJson);

        WardenProcess.Result r = warden("install", "--host", "codex", "--no-train");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains(hooksJson.toString()).contains("hooks.PreToolUse is an object")
                .contains("[settings_event_not_list]");
        assertThat(Files.readAllBytes(hooksJson)).isEqualTo(before);
    }

    /**
     * Regression: uninstall (and re-install) removed every command containing warden, " dispatch
     * --host " and " --native-event ": another tool's script, a customised Warden entry and a
     * notification mentioning Warden all went.
     */
    @Test
    void uninstall_unrelatedWardenSubstring_isKept() throws Exception {
        String custom = "WARDEN_LOG=debug " + launcher + " dispatch --host claude --native-event Stop";
        String user = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": ["
                + "{\"type\": \"command\", \"command\": \"~/bin/my-warden-audit.sh dispatch --host claude --native-event PreToolUse\"}]}\n"
                + "    ],\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"" + custom + "\"}]},\n"
                + "      {\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send 'warden says: dispatch --host claude --native-event Stop'\"}]}\n"
                + "    ]\n  }\n}\n";
        Path settings = writeSettings(project.resolve(".claude/settings.json"), user);

        WardenProcess.Result install = warden("install", "--host", "claude", "--no-train");
        WardenProcess.Result again = warden("install", "--host", "claude", "--no-train");
        WardenProcess.Result uninstall = warden("uninstall", "--host", "claude");

        assertThat(install.exitCode()).as(install.stderr()).isZero();
        assertThat(install.stdout()).contains("kept hooks.Stop: " + custom)
                .contains("kept hooks.PreToolUse: ~/bin/my-warden-audit.sh dispatch");
        assertThat(again.exitCode()).isZero();
        assertThat(uninstall.exitCode()).as(uninstall.stderr()).isZero();
        assertThat(uninstall.stdout()).contains("removed Warden hooks for [PreToolUse, Stop]").contains("kept hooks.Stop: " + custom);
        assertThat(Files.readString(settings)).as("every user entry back, byte for byte").isEqualTo(user);
    }

    @Test
    void uninstall_codexCustomisedWardenEntry_isKeptAndReported() throws Exception {
        String custom = launcher + " dispatch --host codex --native-event PreToolUse --manifest /etc/team.yaml";
        String user = "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"" + custom + "\"}]}]}}";
        Path hooksJson = writeSettings(project.resolve(".codex/hooks.json"), user);

        WardenProcess.Result r = warden("uninstall", "--host", "codex");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("no Warden hooks in " + hooksJson).contains("kept hooks.PreToolUse: " + custom);
        assertThat(Files.readString(hooksJson)).isEqualTo(user);
    }

    /** Regression: a symlinked settings file (dotfiles) became a regular file. */
    @Test
    void install_symlinkedSettings_writesThroughToTarget() throws Exception {
        Path target = writeSettings(home.resolve("dotfiles/claude/settings.json"), USER_SETTINGS);
        Path link = Files.createSymbolicLink(Files.createDirectories(home.resolve(".claude")).resolve("settings.json"),
                Path.of("../dotfiles/claude/settings.json"));

        WardenProcess.Result install = warden("install", "--host", "claude", "--scope", "user", "--no-train");

        assertThat(install.exitCode()).as(install.stderr()).isZero();
        assertThat(install.stdout()).contains("in " + link + " (a link to " + target.toRealPath() + ")");
        assertThat(Files.isSymbolicLink(link)).as("the link stays a link").isTrue();
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(target), "claude")).containsExactly("PreToolUse", "SessionStart", "Stop");

        WardenProcess.Result uninstall = warden("uninstall", "--host", "claude", "--scope", "user");

        assertThat(uninstall.exitCode()).as(uninstall.stderr()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(target)).isEqualTo(USER_SETTINGS);
        try (Stream<Path> files = Files.list(home.resolve(".claude"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("settings.json");
        }
    }

    @Test
    void install_codexSymlinkedHooksJson_writesThroughToTarget() throws Exception {
        Path target = writeSettings(project.resolve("config/codex-hooks.json"), USER_SETTINGS);
        Path link = Files.createSymbolicLink(Files.createDirectories(project.resolve(".codex")).resolve("hooks.json"),
                Path.of("../config/codex-hooks.json"));

        WardenProcess.Result r = warden("install", "--host", "codex", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(target), "codex")).containsExactly("PreToolUse", "SubagentStart");
    }

    @Test
    void install_dryRunThroughSymlink_namesTargetWritesNothing() throws Exception {
        Path target = writeSettings(home.resolve("dotfiles/settings.json"), USER_SETTINGS);
        Path link = Files.createSymbolicLink(Files.createDirectories(home.resolve(".claude")).resolve("settings.json"), target);

        WardenProcess.Result r = warden("install", "--host", "claude", "--scope", "user", "--dry-run");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("# would write " + link + " (a link to " + target.toRealPath() + ")\n");
        String printed = r.stdout().substring(r.stdout().indexOf('\n') + 1);
        assertThat(ClaudeSettings.installedEvents(printed.getBytes(StandardCharsets.UTF_8), "claude")).contains("PreToolUse");
        assertThat(Files.readString(target)).isEqualTo(USER_SETTINGS);
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    /** Regression: a dangling link was replaced by a regular file. */
    @Test
    void install_danglingSymlink_refusedClearly() throws Exception {
        Path link = Files.createSymbolicLink(Files.createDirectories(home.resolve(".claude")).resolve("settings.json"),
                home.resolve("dotfiles/settings.json"));

        WardenProcess.Result r = warden("install", "--host", "claude", "--scope", "user", "--no-train");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains(link + " is a symbolic link to " + home.resolve("dotfiles/settings.json") + ", which does not exist")
                .contains("[settings_dangling_link]");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.exists(home.resolve("dotfiles"))).isFalse();
    }

    /** A cloned repository's .claude/settings.json linking out of the project cannot make install edit another file. */
    @Test
    void install_projectSettingsLinkedOutsideProject_refused() throws Exception {
        Path userSettings = writeSettings(home.resolve(".claude/settings.json"), USER_SETTINGS);
        Files.createSymbolicLink(Files.createDirectories(project.resolve(".claude")).resolve("settings.json"), userSettings);

        WardenProcess.Result r = warden("install", "--host", "claude", "--no-train");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("outside the project").contains("[settings_outside_project]");
        assertThat(Files.readString(userSettings)).isEqualTo(USER_SETTINGS);
    }

    /** Regression: a read-only (0444) settings file was rewritten; refused even when run as root. */
    @Test
    void install_readOnlySettings_refusedAndLeftUntouched() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);
        Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("r--r--r--"));

        WardenProcess.Result install = warden("install", "--host", "claude", "--no-train");

        assertThat(install.exitCode()).isEqualTo(2);
        assertThat(install.stderr()).contains(settings + " is read-only (mode r--r--r--)").contains("chmod u+w")
                .contains("[settings_read_only]");
        assertThat(Files.readString(settings)).isEqualTo(USER_SETTINGS);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings))).isEqualTo("r--r--r--");
    }

    /**
     * Regression: rewriting changed values the user wrote (a big integer became 1.2345678901234568e+29,
     * a long decimal 0.1, -0 became 0, invalid UTF-8 U+FFFD, one of two duplicate keys dropped).
     */
    @Test
    void install_bigIntegerLiteral_keepsOriginalText() throws Exception {
        for (String host : List.of("claude", "codex")) {
            Path file = project.resolve(host.equals("codex") ? ".codex/hooks.json" : ".claude/settings.json");
            Files.createDirectories(file.getParent());
            byte[] user = ("{\n  \"env\": {\"BIG\": 123456789012345678901234567890, \"PRECISE\": 0.1000000000000000055511151231257827,"
                    + " \"Z\": -0},\n  \"model\": \"sonnet\",\n  \"model\": \"opus\",\n  \"statusLine\": \"caf\u0001\"\n}\n")
                    .getBytes(StandardCharsets.UTF_8);
            user[user.length - 5] = (byte) 0xff;
            Files.write(file, user);

            WardenProcess.Result install = warden("install", "--host", host, "--no-train");
            String installed = Files.readString(file, StandardCharsets.ISO_8859_1);
            WardenProcess.Result uninstall = warden("uninstall", "--host", host);

            assertThat(install.exitCode()).as(install.stderr()).isZero();
            assertThat(installed).contains("\"BIG\": 123456789012345678901234567890, \"PRECISE\": 0.1000000000000000055511151231257827,"
                    + " \"Z\": -0}").contains("\"model\": \"sonnet\",\n  \"model\": \"opus\"");
            assertThat(uninstall.exitCode()).as(uninstall.stderr()).isZero();
            assertThat(Files.readAllBytes(file)).as(host + ": the original bytes exactly").isEqualTo(user);
        }
    }

    /** What the installed hooks run: the compiled client where install could build one, else bin/warden. */
    private String hookLauncher() {
        Path compiled = tmp.resolve("cache/hook").resolve(WardenProcess.home().toAbsolutePath().normalize().toString()
                .replace('/', '_')).resolve("bin/warden");
        return Files.isExecutable(compiled) ? compiled.toString() : launcher;
    }

    private WardenProcess.Result warden(String... args) throws Exception {
        return WardenProcess.run(List.of("-Dwarden.home=" + WardenProcess.home().toAbsolutePath()), List.of(args),
                Map.of("HOME", home.toString(), "WARDEN_CACHE_DIR", tmp.resolve("cache").toString()), new byte[0], project);
    }

    private static Path writeSettings(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
