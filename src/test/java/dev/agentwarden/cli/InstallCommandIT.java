package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.dispatch.WardenProcess;
import dev.agentwarden.host.JsonSplice;
import dev.agentwarden.host.JsonSpans;
import dev.agentwarden.host.SettingsFile;
import dev.agentwarden.host.claude.ClaudeSettings;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

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
    void dirs() throws Exception {
        project = Files.createDirectories(tmp.resolve("project"));
        home = Files.createDirectories(tmp.resolve("home"));
        launcher = WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString();
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), PROJECT_MANIFEST);
    }

    @Test
    void install_projectScope_addsBoundEventsKeepsUserHooks() throws Exception {
        Path settings = writeSettings(project.resolve(".claude/settings.json"), USER_SETTINGS);

        WardenProcess.Result r = warden("install", "--host", "claude", "--no-train");

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("installed 2 hook(s) for claude in " + settings).contains("PreToolUse  matcher=Bash")
                .contains("  Stop\n");
        byte[] after = Files.readAllBytes(settings);
        assertThat(ClaudeSettings.installedEvents(after, "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(new String(ClaudeSettings.uninstall(after, "claude"), StandardCharsets.UTF_8)).isEqualTo(USER_SETTINGS);
        assertThat(Files.readString(settings)).contains("\"command\": \"" + launcher + " dispatch --host claude --native-event PreToolUse\"");
        assertThat(Files.exists(home.resolve(".claude/settings.json"))).as("user scope untouched").isFalse();
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
        assertThat(ClaudeSettings.installedEvents(after, "claude")).containsExactlyInAnyOrder("PermissionRequest", "PostToolUse",
                "PreCompact", "PreToolUse", "SessionEnd", "SessionStart", "Stop", "SubagentStart", "SubagentStop",
                "UserPromptSubmit");
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

        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(home.resolve(".claude/settings.json")), "claude")).isEmpty();
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
                .contains("  SubagentStart\n");
        byte[] after = Files.readAllBytes(hooksJson);
        assertThat(ClaudeSettings.installedEvents(after, "codex")).containsExactly("PreToolUse", "SubagentStart");
        assertThat(Files.readString(hooksJson))
                .contains("\"command\": \"" + launcher + " dispatch --host codex --native-event PreToolUse\"")
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

    private WardenProcess.Result warden(String... args) throws Exception {
        return WardenProcess.run(List.of("-Dwarden.home=" + WardenProcess.home().toAbsolutePath()), List.of(args),
                Map.of("HOME", home.toString(), "WARDEN_CACHE_DIR", tmp.resolve("cache").toString()), new byte[0], project);
    }

    private static Path writeSettings(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
