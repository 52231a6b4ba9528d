package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.e2e.ManagedEtc.Overlay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 26 item 3 on the real Codex CLI: {@code warden install --scope managed --host codex}, run as root over an
 * overlay on {@code /etc} ({@link ManagedEtc}), writes Warden's block into {@code /etc/codex/requirements.toml}; the
 * managed Warden policy denies {@code touch denied-marker}. The session runs {@code codex exec} (with
 * {@code --dangerously-bypass-hook-trust}, so the project's own hooks are not held back for review) in a mount
 * namespace over the same overlay, in the loopback-only sandbox. A {@code denied-marker} file proves whether
 * the denied command ran; a {@code project-hook-ran} marker whether the project's own PreToolUse hook did.
 */
@Tag("e2e")
@ResourceLock(HostSuite.LOCK_PREFIX + "codex")
class CodexManagedInstallE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String REASON = "MANAGED-26C: denied-marker is refused on this machine";
    /** Codex refuses {@code rm -rf} on its own ("rm -f style commands are not permitted"), so the denied command is a touch. */
    private static final String MANAGED = ManagedEtc.deny("codex", "Bash", "touch\\s+denied-marker", REASON);

    @TempDir
    static Path suiteDir;

    private static CodexSession codex;
    private static String host = "codex";
    private static String unavailable;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp() throws IOException {
        HostSuite suite = HostSuite.open(HostInstall.CODEX, "Codex", "codex", SUMMARY, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            codex = new CodexSession(suite.binary(), suite.sandbox(), suite.wardenCache());
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    /** The control: the project that switches hooks off, with no managed install, runs the command. */
    @Test
    void withoutTheManagedInstall_theCommandRuns() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: control, none installed",
                "project [features] hooks = false, no Warden hook anywhere: the command runs");
        E2eProject project = project(row, true);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);

        Result run = session(etc, project);

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("denied-marker " + (project.exists("denied-marker") ? "created" : "ABSENT"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("denied-marker")).as("the command ran: " + run.describe()).isTrue();
        row.pass();
    }

    @Test
    void projectSwitchingHooksOff_andHavingNoWardenHooks_stillGetsTheManagedDeny() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project [features] hooks = false",
                "the managed pin keeps hooks on: touch denied-marker denied with the managed reason");
        E2eProject project = project(row, true);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project, List.of());

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        row.pass();
    }

    @Test
    void projectsOwnHook_runsBesideTheManagedOne() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project hook beside",
                "touch denied-marker denied by the managed hook; the project's own PreToolUse hook ran too");
        E2eProject project = project(row, false);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project, List.of());

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("the project's own hook ran beside the managed one").isTrue();
        row.pass();
    }

    @Test
    void managedOnly_projectHookStops_managedDenyHolds_andUninstallGivesTheFileBack() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install --managed-only",
                "allow_managed_hooks_only: the project's hook does not run; touch denied-marker denied; uninstall restores the file");
        E2eProject project = project(row, false);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        Path requirements = Files.createDirectories(etc.written("codex")).resolve("requirements.toml");
        String adminFile = "# fleet requirements\nallowed_approval_policies = [\"never\", \"on-request\"]\n";
        Files.writeString(requirements, adminFile);
        install(etc, project, List.of("--managed-only"));
        assertThat(Files.readString(requirements)).startsWith("allow_managed_hooks_only = true");

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("allow_managed_hooks_only turns the project's hook off").isFalse();
        Command.Result un = ManagedEtc.inNamespace(etc, project, codex.baseEnv(), List.of(ManagedEtc.LAUNCHER, "uninstall",
                "--scope", "managed", "--host", "codex", "--managed-only"));
        assertThat(un.exitCode()).as(un.stdout() + un.stderr()).isZero();
        assertThat(Files.readString(requirements)).as("the administrator's file, byte for byte").isEqualTo(adminFile);
        row.pass();
    }

    private static void assertManagedDeny(Result run, E2eProject project, E2eSummary.Row row) {
        boolean told = ManagedEtc.modelWasTold(run.server(), REASON);
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("model told the reason: " + told + "; denied-marker " + (project.exists("denied-marker") ? "CREATED" : "absent")
                + "; project hook " + (project.exists("project-hook-ran") ? "ran" : "did not run"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(told).as("the managed reason reached the model: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /**
     * A project with its own PreToolUse hook in {@code .codex/hooks.json} (no Warden hook),
     * and {@code [features] hooks = false} in {@code .codex/config.toml} when asked.
     */
    private E2eProject project(E2eSummary.Row row, boolean hooksOff) throws IOException {
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        Path codexDir = Files.createDirectories(project.root().resolve(".codex"));
        Files.writeString(codexDir.resolve("hooks.json"), "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": ["
                + "{\"type\": \"command\", \"command\": \"touch " + project.root().resolve("project-hook-ran") + "\"}]}]}}\n");
        if (hooksOff) {
            Files.writeString(codexDir.resolve("config.toml"), "[features]\nhooks = false\n");
        }
        return project;
    }

    private static void install(Overlay etc, E2eProject project, List<String> extra) throws IOException {
        ManagedEtc.install(etc, project, codex.baseEnv(), "codex", extra);
        assertThat(Files.readString(etc.written("codex/requirements.toml")))
                .contains(ManagedEtc.LAUNCHER + " dispatch --host codex --native-event PreToolUse");
    }

    private static Result session(Overlay etc, E2eProject project) throws IOException {
        ModelScript script = ModelScript.of(Turn.tool("denied", "exec_command", Map.of("cmd", "touch denied-marker")),
                Turn.text("FINAL: done"));
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), script)) {
            return new Result(codex.run(project, server, "touch the marker", Map.of(), etc.inside()), server);
        }
    }

    record Result(Command.Result process, ScriptedModelServer server) implements HostRun {
    }
}
