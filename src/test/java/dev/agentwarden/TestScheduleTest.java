package dev.agentwarden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * How the slow test classes share the 2-core box (junit-platform.properties): a class that is
 * mostly waiting (child processes, deadlines) or has a long run of cases in order runs beside the
 * one-at-a-time classes rather than in their line, and the longest host suites start first.
 */
class TestScheduleTest {
    /** Classes whose cases share state, so run in order under a lock of their own, beside the other classes. */
    private static final List<String> BESIDE_IN_ORDER = List.of("server.ResidentIT", "server.FastHookIT",
            "cli.IntegrityCliIT");
    /** Classes whose every case has its own launcher home, HOME and cache: the cases run on the pool. */
    private static final List<String> CASES_ON_THE_POOL = List.of("dispatch.LauncherFallbacksIT",
            "dispatch.GeminiExitCodeIT");
    /** The host suites whose sessions run in order, longest first: each starts before those after it. */
    private static final List<String> LONGEST_FIRST = List.of("e2e.ClaudeCodeE2EIT", "e2e.KiloE2EIT",
            "e2e.OpenCodeE2EIT", "e2e.QwenE2EIT", "e2e.ClineE2EIT");

    @Test
    void slowClassesWithCasesInOrder_runBesideTheOthers_underALockOfTheirOwn() throws ClassNotFoundException {
        for (String name : BESIDE_IN_ORDER) {
            Class<?> c = type(name);
            assertThat(c.getAnnotation(Execution.class)).as("%s runs beside the other classes", name).isNotNull()
                    .extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
            assertThat(c.getAnnotation(ResourceLock.class)).as("%s keeps its cases in order", name).isNotNull()
                    .extracting(ResourceLock::value).isEqualTo(c.getSimpleName());
        }
        for (String name : CASES_ON_THE_POOL) {
            assertThat(type(name).getAnnotation(Execution.class)).as("%s runs its cases on the pool", name).isNotNull()
                    .extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
        }
    }

    @Test
    void longHostSuites_startFirst_longestBeforeTheRest() throws IOException, ClassNotFoundException {
        Properties junit = new Properties();
        try (InputStream in = TestScheduleTest.class.getResourceAsStream("/junit-platform.properties")) {
            junit.load(in);
        }
        assertThat(junit.getProperty("junit.jupiter.testclass.order.default"))
                .isEqualTo(ClassOrderer.OrderAnnotation.class.getName());
        int previous = Integer.MIN_VALUE;
        for (String name : LONGEST_FIRST) {
            Order order = type(name).getAnnotation(Order.class);
            assertThat(order).as("%s has its place in the order", name).isNotNull();
            assertThat(order.value()).as("%s starts after the longer suites", name).isGreaterThan(previous)
                    .isLessThan(Order.DEFAULT);
            previous = order.value();
        }
    }

    private static Class<?> type(String name) throws ClassNotFoundException {
        return Class.forName("dev.agentwarden." + name);
    }
}
