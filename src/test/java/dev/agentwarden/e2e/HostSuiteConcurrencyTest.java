package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Which e2e suites run side by side, and what keeps two suites of one host apart: every {@code *IT} class of this
 * package, its execution mode and the lock it holds. {@code READ} suites run their scenarios side by side (each
 * session its own project, home and data folders, model and sandbox; the install only read), {@code READ_WRITE}
 * ones in order, one suite of the host at a time.
 */
class HostSuiteConcurrencyTest {
    /** A suite, how it runs beside the others, and its lock: {@code lock} null when it holds none. */
    private record Suite(Class<?> type, ExecutionMode execution, String lock, ResourceAccessMode mode) {
        static Suite host(Class<?> type, String hostId, ResourceAccessMode mode) {
            return new Suite(type, ExecutionMode.CONCURRENT, HostSuite.LOCK_PREFIX + hostId, mode);
        }
    }

    private static final ResourceAccessMode IN_ORDER = ResourceAccessMode.READ_WRITE;
    private static final ResourceAccessMode SIDE_BY_SIDE = ResourceAccessMode.READ;

    private static final List<Suite> SUITES = List.of(
            Suite.host(ClaudeCodeE2EIT.class, "claude-code", IN_ORDER),
            Suite.host(ClaudeCodePromptGateIT.class, "claude-code", IN_ORDER),
            Suite.host(ClaudeMcpRulesE2EIT.class, "claude-code", IN_ORDER),
            Suite.host(CodexE2EIT.class, "codex", IN_ORDER),
            Suite.host(GeminiE2EIT.class, "gemini-cli", IN_ORDER),
            Suite.host(GeminiMcpRulesE2EIT.class, "gemini-cli", IN_ORDER),
            Suite.host(CopilotE2EIT.class, "copilot", IN_ORDER),
            Suite.host(CopilotPromptGateIT.class, "copilot", IN_ORDER),
            Suite.host(OpenCodeE2EIT.class, "opencode", IN_ORDER),
            Suite.host(KiloE2EIT.class, "kilocode", IN_ORDER),
            Suite.host(QwenE2EIT.class, "qwen-code", IN_ORDER),
            Suite.host(ClineE2EIT.class, "cline", SIDE_BY_SIDE),
            Suite.host(AuggieE2EIT.class, "auggie", SIDE_BY_SIDE),
            Suite.host(DroidE2EIT.class, "droid", SIDE_BY_SIDE),
            new Suite(ReleaseInstallE2EIT.class, ExecutionMode.CONCURRENT, "ReleaseInstallE2EIT", IN_ORDER),
            // same-thread suites: they run one after another, beside the concurrent ones
            new Suite(ClaudeTelemetryJoinIT.class, ExecutionMode.SAME_THREAD, HostSuite.LOCK_PREFIX + "claude-code", IN_ORDER),
            new Suite(ClaudeManagedInstallE2EIT.class, ExecutionMode.SAME_THREAD, null, null),
            new Suite(CodexManagedInstallE2EIT.class, ExecutionMode.SAME_THREAD, HostSuite.LOCK_PREFIX + "codex", IN_ORDER),
            new Suite(CopilotManagedInstallE2EIT.class, ExecutionMode.SAME_THREAD, HostSuite.LOCK_PREFIX + "copilot", IN_ORDER),
            // not the host's id ("gemini-cli"): it does not keep GeminiE2EIT or GeminiMcpRulesE2EIT apart
            new Suite(GeminiManagedInstallE2EIT.class, ExecutionMode.SAME_THREAD, HostSuite.LOCK_PREFIX + "gemini", IN_ORDER));

    @Test
    void everySuite_runsAsItsLockSays() {
        for (Suite suite : SUITES) {
            Class<?> c = suite.type();
            Execution execution = c.getAnnotation(Execution.class);
            assertThat(execution == null ? ExecutionMode.SAME_THREAD : execution.value())
                    .as("%s runs beside the other suites", c.getSimpleName()).isEqualTo(suite.execution());
            ResourceLock lock = c.getAnnotation(ResourceLock.class);
            if (suite.lock() == null) {
                assertThat(lock).as("%s holds no lock", c.getSimpleName()).isNull();
                continue;
            }
            assertThat(lock).as("%s locks its host install", c.getSimpleName()).isNotNull();
            assertThat(lock.value()).as(c.getSimpleName()).isEqualTo(suite.lock());
            assertThat(lock.mode()).as("%s: READ runs its sessions side by side, READ_WRITE in order", c.getSimpleName())
                    .isEqualTo(suite.mode());
        }
    }

    @Test
    void theTable_namesEveryE2eSuite() throws IOException, URISyntaxException {
        Path dir = Path.of(HostSuiteConcurrencyTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(HostSuiteConcurrencyTest.class.getPackageName().replace('.', '/'));
        List<String> listed = SUITES.stream().map(s -> s.type().getSimpleName()).toList();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> suites = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("IT.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length())).toList();
            assertThat(suites).as("e2e suites in " + dir).isNotEmpty();
            assertThat(listed).as("every e2e suite is in this table").containsAll(suites);
        }
    }
}
