package io.dispatchpolicy.domain.lane;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clock as the tick drives it: every iteration, lanes without work are marked idle, the busy ones'
 * times are read, the free slots are shared, and every lane's admissions are passed to {@code advance}
 * (zero for the lanes that had none).
 */
class LaneClockTest {

    private static final String[] LANES = {"critical", "default", "bulk"};
    private static final int[] WEIGHTS = {6, 3, 1};

    /** One iteration over ten free slots (each iteration's jobs end before the next); the lanes admitted, in order. */
    private static List<Integer> iterate(LaneClock clock, boolean[] hasWork) {
        Set<String> active = new HashSet<>();
        int[] wanting = new int[LANES.length];
        for (int i = 0; i < LANES.length; i++) {
            if (hasWork[i]) {
                active.add(LANES[i]);
                wanting[i] = 100;
            } else {
                clock.idle(LANES[i]);
            }
        }
        double[] base = clock.times(LANES, active);
        int[] given = LaneShares.share(10, WEIGHTS, new int[3], new long[3], wanting, base);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < LANES.length; i++) {
            clock.advance(LANES[i], given[i], WEIGHTS[i]);
            for (int k = 0; k < given[i]; k++) {
                order.add(i);
            }
        }
        return order;
    }

    @Test
    void aLaneBackFromIdleStartsLevelWithTheBusyLanesWithoutABurst() {
        LaneClock clock = new LaneClock();
        List<Integer> before = new ArrayList<>();
        while (before.size() < 900) {
            before.addAll(iterate(clock, new boolean[] {true, true, false}));
        }
        assertThat(before).hasSize(900).doesNotContain(2);

        List<Integer> after = new ArrayList<>();
        while (after.size() < 100) {
            after.addAll(iterate(clock, new boolean[] {true, true, true}));
        }
        long bulkInFirstTen = after.subList(0, 10).stream().filter(i -> i == 2).count();
        long bulkInFirstHundred = after.subList(0, 100).stream().filter(i -> i == 2).count();
        assertThat(bulkInFirstTen).as("bulk's part of the first ten admissions after it rejoined").isBetween(0L, 2L);
        assertThat(bulkInFirstHundred).as("bulk's part of the first hundred").isBetween(8L, 12L);
    }

    @Test
    void aLaneThatAdmittedNothingHasNoTimeOfItsOwn() {
        LaneClock clock = new LaneClock();
        clock.times(LANES, Set.of("critical"));
        clock.advance("critical", 60, 6);      // critical at 10
        clock.idle("bulk");
        clock.advance("bulk", 0, 1);          // the tick passes every lane's count, zero included
        double[] times = clock.times(LANES, Set.of("critical", "bulk"));
        assertThat(times[2]).as("bulk rejoins at the busy lanes' lowest time, not at 0").isEqualTo(10.0);
    }
}
