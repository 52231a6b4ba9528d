package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DistributionTest {

    @Test
    void percentile_isNearestRank() {
        Distribution d = new Distribution();
        for (long v = 1; v <= 100; v++) {
            d.add(v);
        }

        assertThat(d.percentile(50)).isEqualTo(50L);
        assertThat(d.percentile(90)).isEqualTo(90L);
        assertThat(d.percentile(99)).isEqualTo(99L);
        assertThat(d.max()).isEqualTo(100L);
        assertThat(d.atLeast(100)).isEqualTo(1L);
    }

    @Test
    void percentile_underHundredObservations_p99IsTheMaximum() {
        Distribution d = new Distribution();
        d.add(0);
        d.add(0);
        d.add(7);

        assertThat(d.percentile(99)).isEqualTo(7L);
        assertThat(d.percentile(50)).isEqualTo(0L);
    }

    @Test
    void percentile_empty_isNull() {
        assertThat(new Distribution().percentile(99)).isNull();
    }
}
