package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.e2e.ManagedEtc.Overlay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@link ManagedInstallE2E} on the real Gemini CLI: the managed install writes {@code /etc/gemini-cli/settings.json}
 * (Warden's hooks and {@code hooksConfig.enabled: true}); the managed Warden policy denies {@code touch …denied-marker}.
 * Markers live in {@code $TMPDIR} (outside the project, as in {@link GeminiE2EIT}): {@code denied-marker} proves
 * whether the denied command ran, {@code project-hook-ran} whether the project's own BeforeTool hook did.
 */
@ResourceLock(HostSuite.LOCK_PREFIX + "gemini")
class GeminiManagedInstallE2EIT extends ManagedInstallE2E<GeminiManagedInstallE2EIT.Result> {
    private static final String REASON = "MANAGED-26G: denied-marker is refused on this machine";
    private static final String SHELL = "run_shell_command";

    private GeminiSession gemini;

    GeminiManagedInstallE2EIT() {
        super(new ManagedHost(HostInstall.GEMINI_CLI, "Gemini CLI", "gemini", "gemini", REASON,
                ManagedEtc.deny("gemini", SHELL, "touch .*denied-marker", REASON), "gemini-cli/settings.json",
                "BeforeTool", "hooksConfig.enabled false",
                "project hooksConfig.enabled false, no Warden hook anywhere: the command runs",
                "system settings win: denied with the managed reason",
                "denied by the system settings' hook; the project's own BeforeTool hook ran too"));
    }

    @Override
    void startSessions(HostSuite suite) {
        gemini = new GeminiSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    Map<String, String> baseEnv() {
        return gemini.baseEnv();
    }

    @Override
    boolean hooksOffSilencesTheProjectHook() {
        return false;
    }

    @Override
    boolean made(E2eProject project, String marker) {
        return Files.exists(project.scratch().resolve(marker));
    }

    @Override
    void assertInstalled(String written) {
        super.assertInstalled(written);
        assertThat(written).contains("\"hooksConfig\"");
    }

    /**
     * {@code hooksConfig.disabled} merges by union across layers and matches a hook's name: a project listing
     * {@code "warden"} switched off a managed hook named so (measured on 0.61.0). The managed install names
     * Warden's hooks {@code warden-} and 16 random hex digits of this machine, which no committed file can know, so
     * the managed deny holds. (A file that names this machine's exact name still switches it off: only someone who
     * reads this machine's {@code /etc/gemini-cli/settings.json} can write it; docs/managed-install.md.)
     */
    @Test
    void projectListingWardensHookAsDisabled_doesNotSwitchTheManagedHookOff(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install: project hooksConfig.disabled [warden]",
                "managed deny holds: the hook's per-machine name is not the one listed");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        Path gem = Files.createDirectories(project.root().resolve(".gemini"));
        Files.writeString(gem.resolve("settings.json"), "{\"hooksConfig\": {\"disabled\": [\"warden\"]}}\n");
        Overlay etc = overlay(dir);
        install(etc, project, List.of());

        Result run = session(etc, project);

        assertManagedDeny(run, project, row);
        row.pass();
    }

    @Override
    void assertCommandRan(Result run, E2eProject project, E2eSummary.Row row) {
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("denied-marker " + (made(project, "denied-marker") ? "created" : "ABSENT"));
        assertThat(made(project, "denied-marker")).as("the command ran: " + run.describe()).isTrue();
    }

    @Override
    void assertManagedDeny(Result run, E2eProject project, E2eSummary.Row row) {
        boolean told = ManagedEtc.modelWasTold(run.server(), REASON);
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("model told the reason: " + told + "; denied-marker " + (made(project, "denied-marker") ? "CREATED" : "absent")
                + "; project hook " + (made(project, PROJECT_HOOK_RAN) ? "ran" : "did not run"));
        assertThat(made(project, "denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(told).as("the managed reason reached the model: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /**
     * A project whose {@code .gemini/settings.json} has its own BeforeTool hook (no Warden hook) and
     * {@code "hooksConfig": {"enabled": false}} when asked.
     */
    @Override
    void arrangeProject(E2eProject project, boolean hooksOff) throws IOException {
        Path gem = Files.createDirectories(project.root().resolve(".gemini"));
        Files.writeString(gem.resolve("settings.json"), "{" + (hooksOff ? "\"hooksConfig\": {\"enabled\": false}, " : "")
                + "\"hooks\": {\"BeforeTool\": [{\"matcher\": \"" + SHELL + "\", \"hooks\": [{\"name\": \"project-hook\","
                + " \"type\": \"command\", \"command\": \"touch " + project.scratch().resolve(PROJECT_HOOK_RAN)
                + "\", \"timeout\": 30000}]}]}}\n");
    }

    @Override
    Result session(Overlay etc, E2eProject project) throws IOException {
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
