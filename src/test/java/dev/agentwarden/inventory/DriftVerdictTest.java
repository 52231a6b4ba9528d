package dev.agentwarden.inventory;

import static dev.agentwarden.inventory.Inventories.failed;
import static dev.agentwarden.inventory.Inventories.server;
import static dev.agentwarden.inventory.Inventories.snapshot;
import static dev.agentwarden.inventory.Inventories.tool;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each inventory_drift class on crafted inventories. */
class DriftVerdictTest {
    private final InventorySnapshot baseline = snapshot(0,
            server("squad", List.of(tool("squad_state_read", "read"), tool("squad_decide", "decide"))));
    private final InventorySnapshot withExtraServer = snapshot(1,
            server("squad", List.of(tool("squad_state_read", "read"), tool("squad_decide", "decide"))),
            server("github", List.of(tool("create_issue", "issue"))));
    private final Preregistration prereg = new Preregistration(baseline.sha256(),
            Map.of("with-github", withExtraServer.sha256()), List.of("claude/squad/squad_state_read"));

    @Test
    void classify_unchangedInventory_isNone() {
        InventorySnapshot sameAgain = snapshot(3,
                server("squad", List.of(tool("squad_decide", "decide"), tool("squad_state_read", "read"))));
        DriftVerdict v = DriftVerdict.classify(prereg, sameAgain);
        assertThat(v.status()).isEqualTo(DriftStatus.NONE);
        assertThat(v.reasons()).isEmpty();
    }

    @Test
    void classify_declaredVariant_isExpectedVariantWithItsLabel() {
        DriftVerdict v = DriftVerdict.classify(prereg, withExtraServer);
        assertThat(v.status()).isEqualTo(DriftStatus.EXPECTED_VARIANT);
        assertThat(v.variant()).isEqualTo("with-github");
    }

    @Test
    void classify_undeclaredChangeFullyCaptured_isExploratory() {
        InventorySnapshot changed = snapshot(2,
                server("squad", List.of(tool("squad_state_read", "read"), tool("squad_decide", "decide now"))));
        DriftVerdict v = DriftVerdict.classify(prereg, changed);
        assertThat(v.status()).isEqualTo(DriftStatus.EXPLORATORY);
        assertThat(v.variant()).isNull();
    }

    @Test
    void classify_requiredToolDisappearingMidSession_invalidatesThatTurnOnly() {
        InventorySnapshot turn1 = snapshot(1,
                server("squad", List.of(tool("squad_state_read", "read"), tool("squad_decide", "decide"))));
        InventorySnapshot turn2 = snapshot(2, server("squad", List.of(tool("squad_decide", "decide"))));
        assertThat(DriftVerdict.classify(prereg, turn1).status()).isEqualTo(DriftStatus.NONE);
        DriftVerdict v = DriftVerdict.classify(prereg, turn2);
        assertThat(v.status()).isEqualTo(DriftStatus.INVALIDATING);
        assertThat(v.reasons()).containsExactly("required tool missing: claude/squad/squad_state_read");
    }

    @Test
    void classify_serverWithoutManifest_isInvalidatingNeverNone() {
        InventorySnapshot broken = snapshot(1,
                server("squad", List.of(tool("squad_state_read", "read"), tool("squad_decide", "decide"))),
                failed("slow", ServerStatus.TIMEOUT));
        DriftVerdict v = DriftVerdict.classify(prereg, broken);
        assertThat(v.status()).isEqualTo(DriftStatus.INVALIDATING);
        assertThat(v.reasons().get(0)).startsWith("missing manifest: claude/slow TIMEOUT");
    }

    @Test
    void classify_noSnapshotForTheTurn_isInvalidating() {
        assertThat(DriftVerdict.classify(prereg, null).status()).isEqualTo(DriftStatus.INVALIDATING);
    }

    @Test
    void classify_requiredToolOnAFailedServer_isInvalidatingEvenIfHashMatchesAVariant() {
        InventorySnapshot skipped = snapshot(1, failed("squad", ServerStatus.SKIPPED_UNTRUSTED));
        Preregistration declaredBroken = new Preregistration(baseline.sha256(),
                Map.of("broken", skipped.sha256()), List.of("claude/squad/squad_state_read"));
        assertThat(DriftVerdict.classify(declaredBroken, skipped).status()).isEqualTo(DriftStatus.INVALIDATING);
    }
}
