package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.e2e.ManagedEtc.Overlay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@link ManagedInstallE2E} on the real Codex CLI: the managed install writes Warden's block into
 * {@code /etc/codex/requirements.toml}; the managed Warden policy denies {@code touch denied-marker}. The session runs
 * {@code codex exec} (with {@code --dangerously-bypass-hook-trust}, so the project's own hooks are not held back for
 * review). A {@code denied-marker} file proves whether the denied command ran; a {@code project-hook-ran} marker whether
 * the project's own PreToolUse hook did.
 */
@ResourceLock(HostSuite.LOCK_PREFIX + "codex")
class CodexManagedInstallE2EIT extends ManagedInstallE2E<CodexManagedInstallE2EIT.Result> {
    private static final String REASON = "MANAGED-26C: denied-marker is refused on this machine";

    private CodexSession codex;

    CodexManagedInstallE2EIT() {
        // Codex refuses rm -rf on its own ("rm -f style commands are not permitted"), so the denied command is a touch.
        super(new ManagedHost(HostInstall.CODEX, "Codex", "codex", "codex", REASON,
                ManagedEtc.deny("codex", "Bash", "touch\\s+denied-marker", REASON), "codex/requirements.toml",
                "PreToolUse", "[features] hooks = false",
                "project [features] hooks = false, no Warden hook anywhere: the command runs",
                "the managed pin keeps hooks on: touch denied-marker denied with the managed reason",
                "touch denied-marker denied by the managed hook; the project's own PreToolUse hook ran too"));
    }

    @Override
    void startSessions(HostSuite suite) {
        codex = new CodexSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    Map<String, String> baseEnv() {
        return codex.baseEnv();
    }

    @Override
    boolean hooksOffSilencesTheProjectHook() {
        return false;
    }

    @Test
    void managedOnly_projectHookStops_managedDenyHolds_andUninstallGivesTheFileBack(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install --managed-only",
                "allow_managed_hooks_only: the project's hook does not run; touch denied-marker denied; uninstall restores the file");
        managedOnlyRound(dir, row, "# fleet requirements\nallowed_approval_policies = [\"never\", \"on-request\"]\n",
                "allow_managed_hooks_only = true", true);
        row.pass();
    }

    @Override
    void assertCommandRan(Result run, E2eProject project, E2eSummary.Row row) {
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("denied-marker " + (project.exists("denied-marker") ? "created" : "ABSENT"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("denied-marker")).as("the command ran: " + run.describe()).isTrue();
    }

    @Override
    void assertManagedDeny(Result run, E2eProject project, E2eSummary.Row row) {
        boolean told = ManagedEtc.modelWasTold(run.server(), REASON);
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("model told the reason: " + told + "; denied-marker " + (project.exists("denied-marker") ? "CREATED" : "absent")
                + "; project hook " + (project.exists(PROJECT_HOOK_RAN) ? "ran" : "did not run"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(told).as("the managed reason reached the model: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /**
     * A project with its own PreToolUse hook in {@code .codex/hooks.json} (no Warden hook),
     * and {@code [features] hooks = false} in {@code .codex/config.toml} when asked.
     */
    @Override
    void arrangeProject(E2eProject project, boolean hooksOff) throws IOException {
        Path codexDir = Files.createDirectories(project.root().resolve(".codex"));
        Files.writeString(codexDir.resolve("hooks.json"), "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": ["
                + "{\"type\": \"command\", \"command\": \"touch " + project.root().resolve(PROJECT_HOOK_RAN) + "\"}]}]}}\n");
        if (hooksOff) {
            Files.writeString(codexDir.resolve("config.toml"), "[features]\nhooks = false\n");
        }
    }

    @Override
    Result session(Overlay etc, E2eProject project) throws IOException {
        ModelScript script = ModelScript.of(Turn.tool("denied", "exec_command", Map.of("cmd", "touch denied-marker")),
                Turn.text("FINAL: done"));
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), script)) {
            return new Result(codex.run(project, server, "touch the marker", Map.of(), etc.inside()), server);
        }
    }

    record Result(Command.Result process, ScriptedModelServer server) implements HostRun {
    }
}
