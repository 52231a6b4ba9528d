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
 * {@link ManagedInstallE2E} on the real Copilot CLI: the managed install writes
 * {@code /etc/github-copilot/policy.d/warden.json}; the managed Warden policy denies {@code touch denied-marker}. The
 * {@code denied-marker} file proves whether the denied command ran; a {@code project-hook-ran} marker whether the
 * project's own preToolUse hook did. The session first runs an allowed {@code touch allowed-marker}: on 1.0.102 the
 * policy hook's deny ends the preToolUse chain, so the project's hook runs beside the managed one only for calls the
 * managed one lets through (measured).
 */
@ResourceLock(HostSuite.LOCK_PREFIX + "copilot")
class CopilotManagedInstallE2EIT extends ManagedInstallE2E<CopilotManagedInstallE2EIT.Result> {
    private static final String REASON = "MANAGED-26P: denied-marker is refused on this machine";

    private CopilotSession copilot;

    CopilotManagedInstallE2EIT() {
        super(new ManagedHost(HostInstall.COPILOT, "Copilot CLI", "copilot", "copilot", REASON,
                ManagedEtc.deny("copilot", "bash", "touch .*denied-marker", REASON), "github-copilot/policy.d/warden.json",
                "preToolUse", "disableAllHooks",
                "project disableAllHooks, no Warden hook anywhere: the command runs",
                "policy hook runs: denied with the managed reason; the project's own hook does not run",
                "denied by the policy hook; the project's own preToolUse hook ran too (for the allowed call)"));
    }

    @Override
    void startSessions(HostSuite suite) {
        copilot = new CopilotSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    Map<String, String> baseEnv() {
        return copilot.baseEnv();
    }

    @Override
    boolean hooksOffSilencesTheProjectHook() {
        return true;
    }

    @Test
    void untrustedFolder_stillGetsTheManagedDeny(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install: folder not trusted",
                "no --trust-folder: the project's hooks are skipped, the policy hook still denies");
        E2eProject project = project(dir, row, false);
        Overlay etc = overlay(dir);
        install(etc, project, List.of());

        Result run = session(etc, project, false);

        assertManagedDeny(run, project, row);
        assertThat(project.exists(PROJECT_HOOK_RAN)).as("an untrusted folder's hooks are skipped").isFalse();
        row.pass();
    }

    @Override
    void assertCommandRan(Result run, E2eProject project, E2eSummary.Row row) {
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("denied-marker " + (project.exists("denied-marker") ? "created" : "ABSENT"));
        assertThat(project.exists("denied-marker")).as("the command ran: " + run.describe()).isTrue();
    }

    @Override
    void assertManagedDeny(Result run, E2eProject project, E2eSummary.Row row) {
        boolean told = ManagedEtc.modelWasTold(run.server(), REASON);
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("model told the reason: " + told + "; denied-marker " + (project.exists("denied-marker") ? "CREATED" : "absent")
                + "; project hook " + (project.exists(PROJECT_HOOK_RAN) ? "ran" : "did not run"));
        assertThat(project.exists("denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
        assertThat(told).as("the managed reason reached the model: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /**
     * A project with its own preToolUse hook in {@code .github/hooks/project.json} (no Warden hook), and
     * {@code "disableAllHooks": true} in {@code .github/copilot/settings.json} when asked.
     */
    @Override
    void arrangeProject(E2eProject project, boolean disableAllHooks) throws IOException {
        Path hooks = Files.createDirectories(project.root().resolve(".github/hooks"));
        Files.writeString(hooks.resolve("project.json"), "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\","
                + " \"bash\": \"touch " + project.root().resolve(PROJECT_HOOK_RAN) + "\", \"timeoutSec\": 30}]}}\n");
        if (disableAllHooks) {
            Path settings = Files.createDirectories(project.root().resolve(".github/copilot"));
            Files.writeString(settings.resolve("settings.json"), "{\"disableAllHooks\": true}\n");
        }
    }

    /** A session in a trusted folder ({@code --trust-folder}). */
    @Override
    Result session(Overlay etc, E2eProject project) throws IOException {
        return session(etc, project, true);
    }

    private Result session(Overlay etc, E2eProject project, boolean trustFolder) throws IOException {
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
