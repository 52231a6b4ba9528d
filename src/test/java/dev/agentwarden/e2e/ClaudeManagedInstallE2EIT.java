package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.e2e.ManagedEtc.Overlay;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 3 on the real Claude Code: {@code warden install --scope managed --host claude}, run as root in a
 * mount namespace whose {@code /etc} is an overlay (the machine's own {@code /etc} is never written), writes
 * {@code /etc/claude-code/managed-settings.json}; the managed Warden policy in {@code /etc/agent-warden/manifest.yaml}
 * denies {@code rm -rf}. Each session runs in a mount namespace over the same overlay.
 */
class ClaudeManagedInstallE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String REASON = "MANAGED-26: rm -rf is refused on this machine";
    private static final String MANAGED = ManagedEtc.denyRmRf("claude", "Bash", REASON);

    @TempDir
    static Path suiteDir;

    private static Path launcher;
    private static final String NS_LAUNCHER = ManagedEtc.LAUNCHER;
    private static ClaudeCodeSession claude;
    private static String host = "claude-code";
    private static String unavailable;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp() throws IOException {
        launcher = HostSuite.launcher();
        HostInstall.Outcome outcome = HostInstall.ensureOrAnnounce(HostInstall.CLAUDE_CODE, "Claude Code", SUMMARY);
        if (!outcome.available()) {
            unavailable = outcome.unavailable();
            return;
        }
        host = "claude-code " + outcome.version();
        LoopbackSandbox sandbox = LoopbackSandbox.probe(Files.createDirectories(suiteDir.resolve("sandbox")));
        SUMMARY.note("network: " + sandbox.description());
        claude = new ClaudeCodeSession(outcome.binary(), sandbox, suiteDir.resolve("warden-cache"));
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    /** The control: the same project with no managed install runs the command, so the deny below is the managed hook's. */
    @Test
    void withoutTheManagedInstall_theCommandRuns() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: control, none installed",
                "no Warden hook anywhere: rm -rf runs (the managed policy alone enforces nothing)");
        E2eProject project = project(row);
        projectSettings(project, true);
        Overlay etc = overlay();

        ClaudeRun run = session(etc, project);

        row.timing(run);
        row.observed("victim " + (project.exists("victim/keep.txt") ? "kept" : "deleted") + "; denials "
                + run.permissionDenials());
        assertThat(run.completed()).as("the host session completed: " + run.describe()).isTrue();
        assertThat(run.permissionDenials()).isEmpty();
        assertThat(project.exists("victim")).as("rm -rf ran").isFalse();
        row.pass();
    }

    @Test
    void projectWithDisableAllHooks_andNoWardenHooks_stillGetsTheManagedDeny() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project disableAllHooks",
                "managed hook runs; rm -rf denied with the managed reason; the project's own hook does not run");
        E2eProject project = project(row);
        projectSettings(project, true);
        Overlay etc = overlay();
        install(etc, project, List.of());

        ClaudeRun run = session(etc, project);

        row.timing(run);
        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("disableAllHooks turns the project's own hook off").isFalse();
        row.pass();
    }

    @Test
    void projectsOwnHook_runsBesideTheManagedOne() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project hook beside",
                "rm -rf denied by the managed hook; the project's own PreToolUse hook ran too");
        E2eProject project = project(row);
        projectSettings(project, false);
        Overlay etc = overlay();
        install(etc, project, List.of());

        ClaudeRun run = session(etc, project);

        row.timing(run);
        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("the project's own hook ran beside the managed one").isTrue();
        row.pass();
    }

    @Test
    void managedOnly_projectHooksStop_managedDenyHolds_andUninstallGivesTheFileBack() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install --managed-only",
                "allowManagedHooksOnly: the project's hook does not run; rm -rf denied; uninstall restores the file");
        E2eProject project = project(row);
        projectSettings(project, false);
        Overlay etc = overlay();
        Path managedSettings = Files.createDirectories(etc.upper().resolve("claude-code")).resolve("managed-settings.json");
        String adminFile = "{\n  \"permissions\": {\"deny\": [\"Bash(curl:*)\"]}\n}\n";
        Files.writeString(managedSettings, adminFile);
        install(etc, project, List.of("--managed-only"));
        assertThat(Files.readString(managedSettings)).contains("\"allowManagedHooksOnly\": true");

        ClaudeRun run = session(etc, project);

        row.timing(run);
        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("allowManagedHooksOnly turns the project's hook off").isFalse();
        Command.Result un = inNamespace(etc, project, List.of(NS_LAUNCHER, "uninstall", "--scope", "managed",
                "--host", "claude", "--managed-only"));
        assertThat(un.exitCode()).as(un.stdout() + un.stderr()).isZero();
        assertThat(Files.readString(managedSettings)).as("the administrator's file, byte for byte").isEqualTo(adminFile);
        row.pass();
    }

    private static void assertManagedDeny(ClaudeRun run, E2eProject project, E2eSummary.Row row) {
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("rm");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; victim " + (project.exists("victim/keep.txt") ? "kept" : "DELETED")
                + "; project hook " + (project.exists("project-hook-ran") ? "ran" : "did not run"));
        assertThat(run.completed()).as("the host session completed: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        assertThat(result).as("tool_result for rm -rf").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).contains(REASON);
        });
        assertThat(project.exists("victim/keep.txt")).as("rm -rf ran").isTrue();
        assertThat(run.permissionDenials()).containsExactly("toolu_rm");
    }

    private E2eProject project(E2eSummary.Row row) throws IOException {
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        Files.createDirectories(project.root().resolve("victim"));
        Files.writeString(project.root().resolve("victim/keep.txt"), "keep\n");
        project.allowBash("rm -rf victim");
        return project;
    }

    /**
     * The project's own {@code .claude/settings.json}: no Warden hook, one hook of its own that leaves a marker,
     * and {@code disableAllHooks: true} when asked.
     */
    private static void projectSettings(E2eProject project, boolean disableAllHooks) throws IOException {
        Map<String, Object> handler = new LinkedHashMap<>();
        handler.put("type", "command");
        handler.put("command", "touch \"$CLAUDE_PROJECT_DIR/project-hook-ran\"");
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("matcher", "Bash");
        group.put("hooks", List.of(handler));
        Map<String, Object> settings = new LinkedHashMap<>();
        if (disableAllHooks) {
            settings.put("disableAllHooks", Boolean.TRUE);
        }
        settings.put("hooks", Map.of("PreToolUse", List.of(group)));
        Files.writeString(project.root().resolve(".claude/settings.json"), Json.writePretty(settings), StandardCharsets.UTF_8);
    }

    private Overlay overlay() throws Exception {
        return ManagedEtc.overlay(dir, MANAGED);
    }

    private static void install(Overlay etc, E2eProject project, List<String> extra) throws IOException {
        ManagedEtc.install(etc, project, claude.baseEnv(), "claude", extra);
        assertThat(Files.readString(etc.written("claude-code/managed-settings.json")))
                .contains(NS_LAUNCHER + " dispatch --host claude --native-event PreToolUse");
    }

    private static Command.Result inNamespace(Overlay etc, E2eProject project, List<String> command) throws IOException {
        return ManagedEtc.inNamespace(etc, project, claude.baseEnv(), command);
    }

    private static ClaudeRun session(Overlay etc, E2eProject project) throws IOException {
        ModelScript script = ModelScript.of(
                Turn.tool("rm", "Bash", Map.of("command", "rm -rf victim", "description", "remove victim")),
                Turn.text("FINAL: done"));
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), script)) {
            return claude.run(project, server, "remove the victim directory", Map.of(), etc.inside());
        }
    }
}
