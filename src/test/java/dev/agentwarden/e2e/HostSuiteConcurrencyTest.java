package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/** Which host suites run side by side, and what keeps two suites of one host apart. */
class HostSuiteConcurrencyTest {
    /** Each suite and the host install its lock names. */
    private static final List<Object[]> SUITES = List.of(
            new Object[] {ClaudeCodeE2EIT.class, "claude-code"}, new Object[] {ClaudeCodePromptGateIT.class, "claude-code"},
            new Object[] {CodexE2EIT.class, "codex"}, new Object[] {GeminiE2EIT.class, "gemini-cli"},
            new Object[] {QwenE2EIT.class, "qwen-code"}, new Object[] {CopilotE2EIT.class, "copilot"},
            new Object[] {CopilotPromptGateIT.class, "copilot"}, new Object[] {OpenCodeE2EIT.class, "opencode"},
            new Object[] {KiloE2EIT.class, "kilocode"},
            new Object[] {ClineE2EIT.class, "cline"},
            new Object[] {ClaudeMcpRulesE2EIT.class, "claude-code"}, new Object[] {GeminiMcpRulesE2EIT.class, "gemini-cli"});

    @Test
    void hostSuites_runOneAfterAnother_runSideBySideLockedByTheirHostInstall() {
        for (Object[] suite : SUITES) {
            Class<?> c = (Class<?>) suite[0];
            assertThat(c.getAnnotation(Execution.class)).as("%s runs beside the other suites", c.getSimpleName())
                    .isNotNull().extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
            ResourceLock lock = c.getAnnotation(ResourceLock.class);
            assertThat(lock).as("%s locks its host install, so its scenarios run in order and one suite of a host at a time",
                    c.getSimpleName()).isNotNull();
            assertThat(lock.value()).isEqualTo(HostSuite.LOCK_PREFIX + suite[1]);
        }
    }
}
