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
 * Issue 26 item 3 on the real Gemini CLI: {@code warden install --scope managed --host gemini}, run as root over an
 * overlay on {@code /etc} ({@link ManagedEtc}), writes {@code /etc/gemini-cli/settings.json} (Warden's hooks and
 * {@code hooksConfig.enabled: true}); the managed Warden policy denies {@code touch …denied-marker}. Each
 * {@code gemini -p} runs in a mount namespace over the same overlay, in the loopback-only sandbox. Markers live in
 * {@code $TMPDIR} (outside the project, as in {@link GeminiE2EIT}): {@code denied-marker} proves whether the denied
 * command ran, {@code project-hook-ran} whether the project's own BeforeTool hook did.
 */
@Tag("e2e")
@ResourceLock(HostSuite.LOCK_PREFIX + "gemini")
class GeminiManagedInstallE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String REASON = "MANAGED-26G: denied-marker is refused on this machine";
    private static final String SHELL = "run_shell_command";
    private static final String MANAGED = ManagedEtc.deny("gemini", SHELL, "touch .*denied-marker", REASON);

    @TempDir
    static Path suiteDir;

    private static GeminiSession gemini;
    private static String host = "gemini";
    private static String unavailable;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp() throws IOException {
        HostSuite suite = HostSuite.open(HostInstall.GEMINI_CLI, "Gemini CLI", "gemini", SUMMARY, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            gemini = new GeminiSession(suite.binary(), suite.sandbox(), suite.wardenCache());
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    /** The control: the project that turns hooks off, with no managed install, runs the command. */
    @Test
    void withoutTheManagedInstall_theCommandRuns() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: control, none installed",
                "project hooksConfig.enabled false, no Warden hook anywhere: the command runs");
        E2eProject project = project(row, true);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);

        Result run = session(etc, project);

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("denied-marker " + (made(project, "denied-marker") ? "created" : "ABSENT"));
        assertThat(made(project, "denied-marker")).as("the command ran: " + run.describe()).isTrue();
        row.pass();
    }

    @Test
    void projectTurningHooksOff_andHavingNoWardenHooks_stillGetsTheManagedDeny() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project hooksConfig.enabled false",
                "system settings win: denied with the managed reason");
        E2eProject project = project(row, true);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project);

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        row.pass();
    }

    @Test
    void projectsOwnHook_runsBesideTheManagedOne() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project hook beside",
                "denied by the system settings' hook; the project's own BeforeTool hook ran too");
        E2eProject project = project(row, false);
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project);

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        assertThat(made(project, "project-hook-ran")).as("the project's own hook ran beside the managed one").isTrue();
        row.pass();
    }

    /**
     * {@code hooksConfig.disabled} merges by union across layers and matches a hook's name: a project listing
     * {@code "warden"} switched off a managed hook named so (measured on 0.61.0). The managed install names
     * Warden's hooks {@code warden-} and 16 random hex digits of this machine, which no committed file can know, so
     * the managed deny holds. (A file that names this machine's exact name still switches it off: only someone who
     * reads this machine's {@code /etc/gemini-cli/settings.json} can write it; docs/managed-install.md.)
     */
    @Test
    void projectListingWardensHookAsDisabled_doesNotSwitchTheManagedHookOff() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "managed install: project hooksConfig.disabled [warden]",
                "managed deny holds: the hook's per-machine name is not the one listed");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        Path gem = Files.createDirectories(project.root().resolve(".gemini"));
        Files.writeString(gem.resolve("settings.json"), "{\"hooksConfig\": {\"disabled\": [\"warden\"]}}\n");
        Overlay etc = ManagedEtc.overlay(dir, MANAGED);
        install(etc, project);

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        row.pass();
    }

    private static void assertManagedDeny(Result run, E2eProject project, E2eSummary.Row row) {
        boolean told = ManagedEtc.modelWasTold(run.server(), REASON);
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("model told the reason: " + told + "; denied-marker " + (made(project, "denied-marker") ? "CREATED" : "absent")
                + "; project hook " + (made(project, "project-hook-ran") ? "ran" : "did not run"));
        assertThat(made(project, "denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(told).as("the managed reason reached the model: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    private static boolean made(E2eProject project, String marker) {
        return Files.exists(project.scratch().resolve(marker));
    }

    /**
     * A project whose {@code .gemini/settings.json} has its own BeforeTool hook (no Warden hook) and
     * {@code "hooksConfig": {"enabled": false}} when asked.
     */
    private E2eProject project(E2eSummary.Row row, boolean hooksOff) throws IOException {
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        Path gem = Files.createDirectories(project.root().resolve(".gemini"));
        Files.writeString(gem.resolve("settings.json"), "{" + (hooksOff ? "\"hooksConfig\": {\"enabled\": false}, " : "")
                + "\"hooks\": {\"BeforeTool\": [{\"matcher\": \"" + SHELL + "\", \"hooks\": [{\"name\": \"project-hook\","
                + " \"type\": \"command\", \"command\": \"touch " + project.scratch().resolve("project-hook-ran")
                + "\", \"timeout\": 30000}]}]}}\n");
        return project;
    }

    private static void install(Overlay etc, E2eProject project) throws IOException {
        ManagedEtc.install(etc, project, gemini.baseEnv(), "gemini", List.of());
        assertThat(Files.readString(etc.written("gemini-cli/settings.json")))
                .contains(ManagedEtc.LAUNCHER + " dispatch --host gemini --native-event BeforeTool")
                .contains("\"hooksConfig\"");
    }

    private static Result session(Overlay etc, E2eProject project) throws IOException {
        ModelScript script = ModelScript.of(
                Turn.tool("denied", SHELL, Map.of("command", "touch \"$TMPDIR/denied-marker\"")),
                Turn.text("FINAL: done"));
        try (ScriptedModelServer server = ScriptedModelServer.start(new GeminiGenerateContentApi(), script)) {
            return new Result(gemini.run(project, server, "touch the marker", Map.of(), etc.inside()), server);
        }
    }

    record Result(Command.Result process, ScriptedModelServer server) implements HostRun {
    }
}
