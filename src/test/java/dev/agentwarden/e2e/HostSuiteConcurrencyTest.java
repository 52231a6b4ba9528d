package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
            Suite.host(OpenCodeE2EIT.class, "opencode", SIDE_BY_SIDE),
            Suite.host(KiloE2EIT.class, "kilocode", SIDE_BY_SIDE),
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

    /**
     * A suite that holds its host's lock READ runs its own scenarios side by side, and still
     * excludes every READ_WRITE suite of that host; but two READ holders do not exclude each other,
     * so a host may have one READ suite at most. Every compiled class of this package is read, so a
     * suite missing from {@link #SUITES} cannot slip past.
     */
    @Test
    void atMostOneSuitePerHost_runsItsScenariosSideBySide() throws Exception {
        Map<String, List<String>> readSuitesByLock = new TreeMap<>();
        List<String> hostSuites = new ArrayList<>();
        for (Class<?> c : classesOfThisPackage()) {
            for (ResourceLock lock : c.getAnnotationsByType(ResourceLock.class)) {
                if (!lock.value().startsWith(HostSuite.LOCK_PREFIX)) {
                    continue;
                }
                hostSuites.add(c.getSimpleName());
                if (lock.mode() == ResourceAccessMode.READ) {
                    readSuitesByLock.computeIfAbsent(lock.value(), k -> new ArrayList<>()).add(c.getSimpleName());
                }
            }
        }
        assertThat(hostSuites).as("host suites found among the compiled classes")
                .contains("KiloE2EIT", "OpenCodeE2EIT", "ClaudeCodeE2EIT");
        for (Map.Entry<String, List<String>> e : readSuitesByLock.entrySet()) {
            assertThat(e.getValue()).as("suites holding %s READ (they would overlap)", e.getKey()).hasSize(1);
        }
        assertThat(readSuitesByLock).as("the hosts whose suites run side by side").containsOnlyKeys(
                HostSuite.LOCK_PREFIX + "kilocode", HostSuite.LOCK_PREFIX + "opencode", HostSuite.LOCK_PREFIX + "cline",
                HostSuite.LOCK_PREFIX + "auggie", HostSuite.LOCK_PREFIX + "droid");
    }

    /** The top-level classes compiled into this test's package folder. */
    private static List<Class<?>> classesOfThisPackage() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(HostSuiteConcurrencyTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String pkg = HostSuiteConcurrencyTest.class.getPackageName();
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(root.resolve(pkg.replace('.', '/')))) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".class") && !name.contains("$")) {
                    classes.add(Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()), false,
                            HostSuiteConcurrencyTest.class.getClassLoader()));
                }
            }
        }
        return classes;
    }
}
