package io.dispatchpolicy.domain.lane;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class LaneSharesTest {

    private static final int[] WEIGHTS = {6, 3, 1};
    private static final int[] NO_MIN = {0, 0, 0};

    private static double[] slotsBase(long[] inFlight, int[] weight) {
        double[] base = new double[weight.length];
        for (int i = 0; i < weight.length; i++) {
            base[i] = inFlight[i] / (double) weight[i];
        }
        return base;
    }

    @Test
    void tenSlotsOverSaturatedLanesSixThreeOne() {
        long[] inFlight = {0, 0, 0};
        int[] given = LaneShares.share(10, WEIGHTS, NO_MIN, inFlight, new int[] {100, 100, 100}, slotsBase(inFlight, WEIGHTS));
        assertThat(given).containsExactly(6, 3, 1);
    }

    @Test
    void aFreedSlotGoesToTheLaneFurthestBelowItsShare() {
        // at 6/3/1 in flight, one job of the bulk lane ended: the slot goes back to bulk
        long[] inFlight = {6, 3, 0};
        int[] given = LaneShares.share(1, WEIGHTS, NO_MIN, inFlight, new int[] {100, 100, 100}, slotsBase(inFlight, WEIGHTS));
        assertThat(given).containsExactly(0, 0, 1);
    }

    @Test
    void aLaneWithoutWorkLendsItsShareToTheOthers() {
        long[] inFlight = {0, 0, 0};
        int[] given = LaneShares.share(10, WEIGHTS, NO_MIN, inFlight, new int[] {100, 0, 100}, slotsBase(inFlight, WEIGHTS));
        assertThat(given).containsExactly(8, 0, 2);
        assertThat(given[0] + given[2]).as("no slot idle while work is admissible").isEqualTo(10);
    }

    @Test
    void nothingIsGivenBeyondWhatLanesWant() {
        long[] inFlight = {0, 0, 0};
        int[] given = LaneShares.share(10, WEIGHTS, NO_MIN, inFlight, new int[] {2, 1, 0}, slotsBase(inFlight, WEIGHTS));
        assertThat(given).containsExactly(2, 1, 0);
    }

    @Test
    void aGuaranteedMinimumIsFilledFirstOnceTheLaneHasWork() {
        int[] weight = {1, 9};
        int[] min = {3, 0};
        // A idle: B borrows all ten
        long[] inFlight = {0, 0};
        assertThat(LaneShares.share(10, weight, min, inFlight, new int[] {0, 100}, slotsBase(inFlight, weight)))
                .containsExactly(0, 10);
        // A gets work while B holds all ten: nothing is preempted
        inFlight = new long[] {0, 10};
        assertThat(LaneShares.share(0, weight, min, inFlight, new int[] {5, 100}, slotsBase(inFlight, weight)))
                .containsExactly(0, 0);
        // each slot B frees goes to A until A has its three
        for (int a = 0; a < 3; a++) {
            inFlight = new long[] {a, 9 - a};
            assertThat(LaneShares.share(1, weight, min, inFlight, new int[] {5, 100}, slotsBase(inFlight, weight)))
                    .as("slot freed with A at %d", a).containsExactly(1, 0);
        }
        // at its minimum, A gets its weight's share of what frees next: 1 of 10 in steady state
        inFlight = new long[] {3, 6};
        assertThat(LaneShares.share(1, weight, min, inFlight, new int[] {5, 100}, slotsBase(inFlight, weight)))
                .containsExactly(0, 1);
    }

    @Test
    void theBudgetSplitFollowsTheClockAcrossIterations() {
        LaneClock clock = new LaneClock();
        String[] lanes = {"critical", "default", "bulk"};
        int[] total = new int[3];
        for (int iteration = 0; iteration < 100; iteration++) {
            double[] base = clock.times(lanes, Set.of(lanes));
            int[] given = LaneShares.share(7, WEIGHTS, NO_MIN, new long[3], new int[] {100, 100, 100}, base);
            for (int i = 0; i < 3; i++) {
                total[i] += given[i];
                clock.advance(lanes[i], given[i], WEIGHTS[i]);
            }
        }
        // 700 admissions, 6 : 3 : 1, each within one of its exact share
        assertThat(total[0]).isBetween(419, 421);
        assertThat(total[1]).isBetween(209, 211);
        assertThat(total[2]).isBetween(69, 71);
    }

    @Test
    void aLaneBackFromIdleStartsAtTheOthersTimeWithoutABurst() {
        LaneClock clock = new LaneClock();
        String[] lanes = {"a", "b"};
        int[] weight = {1, 1};
        for (int i = 0; i < 50; i++) { // only a has work
            double[] base = clock.times(lanes, Set.of("a"));
            int[] given = LaneShares.share(2, weight, new int[2], new long[2], new int[] {100, 0}, base);
            clock.advance("a", given[0], 1);
        }
        clock.idle("b");
        double[] base = clock.times(lanes, Set.of("a", "b"));
        int[] given = LaneShares.share(10, weight, new int[2], new long[2], new int[] {100, 100}, base);
        assertThat(given).containsExactly(5, 5);
    }
}
