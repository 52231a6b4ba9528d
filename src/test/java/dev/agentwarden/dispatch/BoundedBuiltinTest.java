package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Issue 10 item 13: a built-in that does file I/O has a deadline like a process concern. */
class BoundedBuiltinTest {

    static ConcernContext context() {
        ConcernSpec spec = new ConcernSpec("stuck", "builtin:subagent-ledger", List.of(), false, Posture.SHADOW, Set.of(),
                100, false, 0, Map.of());
        return new ConcernContext(null, spec, Clock.systemUTC(), null, Map.of());
    }

    @Test
    void run_builtinPastItsTimeout_isAnErrorAndTheWorkerIsInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Concern stuck = c -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return ConcernResult.allow();
        };

        ConcernResult r = BoundedBuiltin.run(stuck, context(), 100);

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).startsWith("timeout after 100 ms");
        assertThat(interrupted.await(60, TimeUnit.SECONDS)).as("worker interrupted").isTrue();
    }

    @Test
    void run_builtinWithinItsTimeout_returnsItsResult() {
        ConcernResult r = BoundedBuiltin.run(c -> ConcernResult.block("no"), context(), 60_000);

        assertThat(r.decision()).isEqualTo(Decision.BLOCK);
    }

    @Test
    void run_builtinThatThrows_isAnError() {
        ConcernResult r = BoundedBuiltin.run(c -> {
            throw new IllegalStateException("boom");
        }, context(), 60_000);

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).contains("boom");
    }
}
