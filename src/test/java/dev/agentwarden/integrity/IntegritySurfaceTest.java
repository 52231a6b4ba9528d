package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/** The gate's internals are not part of the integrity package's public surface. */
class IntegritySurfaceTest {
    @Test
    void evaluatorAndRecorder_nothingOutsideNeedsThem_areNotPublic() {
        assertThat(Modifier.isPublic(Evaluator.class.getModifiers())).as("Evaluator public").isFalse();
        assertThat(Modifier.isPublic(Recorder.class.getModifiers())).as("Recorder public").isFalse();
    }

    @Test
    void gateSurface_staysPublic() {
        for (Class<?> c : new Class<?>[] {IntegrityGate.class, GateSession.class, GateVerdict.class,
                AgentSelection.class, Outcome.class, EvidenceReplay.class}) {
            assertThat(Modifier.isPublic(c.getModifiers())).as(c.getSimpleName() + " public").isTrue();
        }
    }
}
