package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The ITs that start a JVM per golden case spread their cases over the parallel pool. */
class PerCaseJvmConcurrencyTest {
    @Test
    void perCaseJvmIts_ranTheirCasesOneAtATime_runThemOnTheParallelPool() {
        for (Class<?> c : List.of(GoldenDispatchIT.class, GoldenDecisionLineIT.class, HotPathClassLoadIT.class)) {
            assertThat(c.getAnnotation(Execution.class)).as("%s runs its cases concurrently", c.getSimpleName())
                    .isNotNull().extracting(Execution::value).isEqualTo(ExecutionMode.CONCURRENT);
        }
    }
}
