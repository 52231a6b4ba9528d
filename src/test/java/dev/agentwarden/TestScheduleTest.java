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
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLockTarget;

/**
 * How the slow test classes share the 2-core box (junit-platform.properties): a class that is
 * mostly waiting (child processes, deadlines) or has a long run of cases in order runs beside the
 * one-at-a-time classes rather than in their line, and the longest host suites start first.
 */
class TestScheduleTest {
    /** Classes whose cases share state, so run in order under a lock of their own, beside the other classes. */
    private static final List<String> BESIDE_IN_ORDER = List.of("dispatch.OwnJvmPathIT");
    /**
     * Classes whose cases run side by side, except the few that must run alone: those hold the class's
     * lock READ_WRITE, the class holds it READ for its children.
     */
    private static final List<String> SIDE_BY_SIDE_BUT_SOME_ALONE = List.of("server.ResidentIT", "server.FastHookIT");
    /** Classes whose every case has its own launcher home, HOME and cache: the cases run on the pool. */
    private static final List<String> CASES_ON_THE_POOL = List.of("dispatch.LauncherFallbacksIT",
            "dispatch.GeminiExitCodeIT", "cli.IntegrityCliIT", "dispatch.GoldenForwardIT");
    /**
     * Unit classes whose every case runs in fresh projects of its own (a shared compiled-manifest cache, written
     * atomically): their cases run on the pool. {@code GoldenDecisionLineTest} is the longest unit class.
     */
    private static final List<String> UNIT_CASES_ON_THE_POOL = List.of("dispatch.GoldenDecisionLineTest");
    /** Unit classes whose cases share a project (strike counts), so run in order: not on the pool. */
    private static final List<String> UNIT_CASES_IN_ORDER = List.of("dispatch.GoldenServeTest");
    /** The longest unit classes, longest first: each starts before those after it and before the rest. */
    private static final List<String> LONGEST_UNIT_FIRST = List.of("dispatch.GoldenDecisionLineTest",
            "dispatch.GoldenServeTest");
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
        for (String name : SIDE_BY_SIDE_BUT_SOME_ALONE) {
            Class<?> c = type(name);
            assertThat(c.getAnnotation(Execution.class)).as("%s runs beside the other classes", name).isNotNull()
                    .extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
            ResourceLock lock = c.getAnnotation(ResourceLock.class);
            assertThat(lock).as("%s holds its own lock for its cases", name).isNotNull();
            assertThat(lock.value()).isEqualTo(c.getSimpleName());
            assertThat(lock.mode()).as("%s: its cases share the lock, the ones that run alone take it whole", name)
                    .isEqualTo(ResourceAccessMode.READ);
            assertThat(lock.target()).isEqualTo(ResourceLockTarget.CHILDREN);
        }
        for (String name : CASES_ON_THE_POOL) {
            assertThat(type(name).getAnnotation(Execution.class)).as("%s runs its cases on the pool", name).isNotNull()
                    .extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
        }
    }

    @Test
    void goldenUnitClasses_runTheirCasesOnThePool_unlessTheyShareAProject() throws ClassNotFoundException {
        for (String name : UNIT_CASES_ON_THE_POOL) {
            assertThat(type(name).getAnnotation(Execution.class)).as("%s runs its cases on the pool", name).isNotNull()
                    .extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
            assertThat(type(name).getAnnotation(ResourceLock.class)).as("%s takes no lock of its own", name).isNull();
        }
        for (String name : UNIT_CASES_IN_ORDER) {
            Execution execution = type(name).getAnnotation(Execution.class);
            assertThat(execution == null ? ExecutionMode.SAME_THREAD : execution.value())
                    .as("%s runs its cases in order", name).isEqualTo(ExecutionMode.SAME_THREAD);
        }
        int previous = Integer.MIN_VALUE;
        for (String name : LONGEST_UNIT_FIRST) {
            Order order = type(name).getAnnotation(Order.class);
            assertThat(order).as("%s has its place in the order", name).isNotNull();
            assertThat(order.value()).as("%s starts after the longer classes", name).isGreaterThan(previous)
                    .isLessThan(Order.DEFAULT);
            previous = order.value();
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
