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

    @Test
    void merge_ofPartsPastTheBuffer_equalsOneDistributionOfTheWhole() {
        Distribution whole = new Distribution();
        Distribution first = new Distribution();
        Distribution second = new Distribution();
        for (long i = 0; i < 3L * Distribution.MAX_PENDING; i++) {
            long v = (i * 7919) % 5003;
            whole.add(v);
            (i % 3 == 0 ? first : second).add(v);
        }

        first.merge(second);

        assertThat(first.count()).isEqualTo(whole.count());
        assertThat(first.histogram()).isEqualTo(whole.histogram());
        assertThat(first.percentile(99)).isEqualTo(whole.percentile(99));
        assertThat(first.atLeast(5000)).isEqualTo(whole.atLeast(5000));
    }
}
