package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
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

    @Test
    void merge_ofManyPartsInAnyShape_answersAsTheSortedObservations() {
        Random random = new Random(5);
        long[][] ranges = {{0, 10}, {-50, 50}, {0, 1_000_000}, {Long.MIN_VALUE, Long.MAX_VALUE}};
        for (int round = 0; round < 300; round++) {
            long[] range = ranges[round % ranges.length];
            int parts = 1 + random.nextInt(round % 7 == 0 ? 150 : 12);
            List<Distribution> distributions = new ArrayList<>();
            List<Long> all = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                Distribution d = new Distribution();
                int size = random.nextInt(4) == 0 ? 0 : random.nextInt(300);
                for (int i = 0; i < size; i++) {
                    long v = range[0] == Long.MIN_VALUE ? random.nextLong()
                            : range[0] + (long) (random.nextDouble() * (range[1] - range[0] + 1));
                    d.add(v);
                    all.add(v);
                }
                if (random.nextBoolean()) {
                    d.fold();
                }
                distributions.add(d);
            }
            // Merged in a random shape: merges of merges, and parts merged in one after another.
            while (distributions.size() > 1) {
                int i = random.nextInt(distributions.size() - 1);
                distributions.get(i).merge(distributions.remove(i + 1));
            }
            Distribution merged = distributions.get(0);
            Collections.sort(all);
            String shown = "round " + round;
            assertThat(merged.count()).as(shown).isEqualTo(all.size());
            if (all.isEmpty()) {
                assertThat(merged.percentile(50)).isNull();
                assertThat(merged.max()).isNull();
                continue;
            }
            for (double p : new double[] {0.001, 1, 25, 50, 90, 99, 99.9, 100, random.nextDouble() * 100}) {
                long rank = Math.max(1, (long) Math.ceil(p / 100.0 * all.size()));
                assertThat(merged.percentile(p)).as(shown + " p" + p).isEqualTo(all.get((int) rank - 1));
            }
            assertThat(merged.max()).as(shown).isEqualTo(all.get(all.size() - 1));
            for (int t = 0; t < 5; t++) {
                long threshold = all.get(random.nextInt(all.size())) + random.nextInt(3) - 1;
                assertThat(merged.atLeast(threshold)).as(shown + " at least " + threshold)
                        .isEqualTo(all.stream().filter(v -> v >= threshold).count());
            }
            assertThat(merged.atLeast(Long.MIN_VALUE)).isEqualTo(all.size());
            TreeMap<Long, Long> histogram = new TreeMap<>();
            for (long v : all) {
                histogram.merge(v, 1L, Long::sum);
            }
            assertThat(merged.histogram()).as(shown).isEqualTo(histogram);
            assertThat(merged.percentile(50)).as(shown + " after the histogram merged the runs")
                    .isEqualTo(all.get((int) Math.max(1, (long) Math.ceil(0.5 * all.size())) - 1));
        }
    }

    @Test
    void merge_leavesTheMergedDistributionAsItWas_andLaterObservationsOfEitherApart() {
        Distribution a = new Distribution();
        Distribution b = new Distribution();
        for (long v = 1; v <= 10; v++) {
            a.add(v);
            b.add(100 + v);
        }
        a.merge(b);
        b.add(1000);
        a.add(0);

        assertThat(b.count()).isEqualTo(11);
        assertThat(b.max()).isEqualTo(1000L);
        assertThat(b.percentile(1)).isEqualTo(101L);
        assertThat(a.count()).isEqualTo(21);
        assertThat(a.max()).isEqualTo(110L);
        assertThat(a.percentile(1)).isEqualTo(0L);
        assertThat(a.atLeast(101)).isEqualTo(10);
    }
}
