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
 * Issue 26 item 3 on the real Copilot CLI: {@code warden install --scope managed --host copilot}, run as root over an
 * overlay on {@code /etc} ({@link ManagedEtc}), writes {@code /etc/github-copilot/policy.d/warden.json}; the managed
 * Warden policy denies {@code touch denied-marker}. Each {@code copilot -p} runs in a mount namespace over the same
 * overlay, in the loopback-only sandbox. The {@code denied-marker} file proves whether the denied command ran; a
 * {@code project-hook-ran} marker whether the project's own preToolUse hook did. The session first runs an allowed
 * {@code touch allowed-marker}: on 1.0.102 the policy hook's deny ends the preToolUse chain, so the project's hook
 * runs beside the managed one only for calls the managed one lets through (measured).
 */
@Tag("e2e")
@ResourceLock(HostSuite.LOCK_PREFIX + "copilot")
class CopilotManagedInstallE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String REASON = "MANAGED-26P: denied-marker is refused on this machine";
    private static final String MANAGED = ManagedEtc.deny("copilot", "bash", "touch .*denied-marker", REASON);

    @TempDir
    static Path suiteDir;

    private static CopilotSession copilot;
    private static String host = "copilot";
    private static String unavailable;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp() throws IOException {
        HostSuite suite = HostSuite.open(HostInstall.COPILOT, "Copilot CLI", "copilot", SUMMARY, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            copilot = new CopilotSession(suite.binary(), suite.sandbox(), suite.wardenCache());
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    /** The control: the project that sets disableAllHooks, with no managed install, runs the command. */
    @Test
    void withoutTheManagedInstall_theCommandRuns() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: control, none installed",
                "project disableAllHooks, no Warden hook anywhere: the command runs");
        E2eProject project = project(row, true);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);

        Result run = session(etc, project, true);

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("denied-marker " + (project.exists("denied-marker") ? "created" : "ABSENT"));
        assertThat(project.exists("denied-marker")).as("the command ran: " + run.describe()).isTrue();
        row.pass();
    }

    @Test
    void projectWithDisableAllHooks_andNoWardenHooks_stillGetsTheManagedDeny() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project disableAllHooks",
                "policy hook runs: denied with the managed reason; the project's own hook does not run");
        E2eProject project = project(row, true);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project);

        Result run = session(etc, project, true);

        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("disableAllHooks turns the project's own hook off").isFalse();
        row.pass();
    }

    @Test
    void projectsOwnHook_runsBesideTheManagedOne() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project hook beside",
                "denied by the policy hook; the project's own preToolUse hook ran too (for the allowed call)");
        E2eProject project = project(row, false);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project);

        Result run = session(etc, project, true);

        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("the project's own hook ran beside the managed one").isTrue();
        row.pass();
    }

    @Test
    void untrustedFolder_stillGetsTheManagedDeny() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: folder not trusted",
                "no --trust-folder: the project's hooks are skipped, the policy hook still denies");
        E2eProject project = project(row, false);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project);

        Result run = session(etc, project, false);

        assertManagedDeny(run, project, row);
        assertThat(project.exists("project-hook-ran")).as("an untrusted folder's hooks are skipped").isFalse();
        row.pass();
    }

    private static void assertManagedDeny(Result run, E2eProject project, E2eSummary.Row row) {
        boolean told = ManagedEtc.modelWasTold(run.server(), REASON);
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("model told the reason: " + told + "; denied-marker " + (project.exists("denied-marker") ? "CREATED" : "absent")
                + "; project hook " + (project.exists("project-hook-ran") ? "ran" : "did not run"));
        assertThat(project.exists("denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
        assertThat(told).as("the managed reason reached the model: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /**
     * A project with its own preToolUse hook in {@code .github/hooks/project.json} (no Warden hook), and
     * {@code "disableAllHooks": true} in {@code .github/copilot/settings.json} when asked.
     */
    private E2eProject project(E2eSummary.Row row, boolean disableAllHooks) throws IOException {
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        Path hooks = Files.createDirectories(project.root().resolve(".github/hooks"));
        Files.writeString(hooks.resolve("project.json"), "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\","
                + " \"bash\": \"touch " + project.root().resolve("project-hook-ran") + "\", \"timeoutSec\": 30}]}}\n");
        if (disableAllHooks) {
            Path settings = Files.createDirectories(project.root().resolve(".github/copilot"));
            Files.writeString(settings.resolve("settings.json"), "{\"disableAllHooks\": true}\n");
        }
        return project;
    }

    private static void install(Overlay etc, E2eProject project) throws IOException {
        ManagedEtc.install(etc, project, copilot.baseEnv(), "copilot", List.of());
        assertThat(Files.readString(etc.written("github-copilot/policy.d/warden.json")))
                .contains(ManagedEtc.LAUNCHER + " dispatch --host copilot --native-event preToolUse");
    }

    private static Result session(Overlay etc, E2eProject project, boolean trustFolder) throws IOException {
        ModelScript script = ModelScript.of(
                Turn.tool("allowed", "bash", Map.of("command", "touch allowed-marker", "description", "scripted")),
                Turn.tool("denied", "bash", Map.of("command", "touch denied-marker", "description", "scripted")),
                Turn.text("FINAL: done"));
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiChatCompletionsApi(), script)) {
            return new Result(copilot.run(project, server, "touch the marker", trustFolder, Map.of(), etc.inside()), server);
        }
    }

    record Result(Command.Result process, ScriptedModelServer server) implements HostRun {
    }
}
