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
            assertThat(lock).as("%s locks its host install, so that one suite of a host runs at a time",
                    c.getSimpleName()).isNotNull();
            assertThat(lock.value()).isEqualTo(HostSuite.LOCK_PREFIX + suite[1]);
        }
    }

    /**
     * A suite that holds its host's lock READ runs its own scenarios side by side, and still
     * excludes every READ_WRITE suite of that host; but two READ holders do not exclude each other,
     * so a host may have one READ suite at most. Only {@link PluginHostE2E}'s suites hold it READ:
     * their scenarios share nothing a session writes (see its class comment). Every compiled class
     * of this package is read, so a suite missing from {@link #SUITES} cannot slip past.
     */
    @Test
    void atMostOneSuitePerHost_runsItsScenariosSideBySide_andOnlyAPluginHostSuite() throws Exception {
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
                    assertThat(PluginHostE2E.class.isAssignableFrom(c))
                            .as("%s runs its scenarios side by side (READ %s) but is no PluginHostE2E suite", c.getSimpleName(),
                                    lock.value()).isTrue();
                }
            }
        }
        assertThat(hostSuites).as("host suites found among the compiled classes")
                .contains("KiloE2EIT", "OpenCodeE2EIT", "ClaudeCodeE2EIT");
        for (Map.Entry<String, List<String>> e : readSuitesByLock.entrySet()) {
            assertThat(e.getValue()).as("suites holding %s READ (they would overlap)", e.getKey()).hasSize(1);
        }
        assertThat(readSuitesByLock).containsOnlyKeys(HostSuite.LOCK_PREFIX + "kilocode", HostSuite.LOCK_PREFIX + "opencode");
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
