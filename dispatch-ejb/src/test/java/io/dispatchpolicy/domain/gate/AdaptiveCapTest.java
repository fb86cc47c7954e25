package io.dispatchpolicy.domain.gate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AdaptiveCapTest {

    private static final AdaptiveCap.Params SIX = new AdaptiveCap.Params(6, 1000, 1, 0);

    @Test
    void seededAtInitialMaxWithNothingInFlight() {
        assertThat(AdaptiveCap.check(null, SIX, 0).allowed()).isEqualTo(6);
        assertThat(AdaptiveCap.check(null, SIX, 4).allowed()).isEqualTo(2);
        assertThat(AdaptiveCap.check(null, SIX, 6).reason()).isEqualTo(AdaptiveCap.FULL);
    }

    @Test
    void tenFastSuccessesFromFourGiveFourteen() {
        AdaptiveCap.State s = new AdaptiveCap.State(4, 0, 0);
        for (int i = 0; i < 10; i++) {
            s = AdaptiveCap.observe(s, SIX, 20, false);
        }
        assertThat(s.currentMax()).isEqualTo(14);
    }

    @Test
    void aFailureHalves() {
        assertThat(AdaptiveCap.observe(new AdaptiveCap.State(10, 0, 0), SIX, 20, true).currentMax()).isEqualTo(5);
    }

    @Test
    void atTheFloorAFailureStaysThere() {
        assertThat(AdaptiveCap.observe(new AdaptiveCap.State(1, 0, 0), SIX, 20, true).currentMax()).isEqualTo(1);
    }

    @Test
    void slowQueueShrinksByFivePercent() {
        AdaptiveCap.State s = AdaptiveCap.observe(new AdaptiveCap.State(20, 1500, 0), SIX, 3000, false);
        assertThat(s.ewmaLagMs()).isEqualTo(2250.0);
        assertThat(s.currentMax()).isEqualTo(19);
    }

    @Test
    void ceilingCapsGrowth() {
        AdaptiveCap.Params capped = new AdaptiveCap.Params(6, 1000, 1, 8);
        AdaptiveCap.State s = new AdaptiveCap.State(8, 0, 0);
        assertThat(AdaptiveCap.observe(s, capped, 10, false).currentMax()).isEqualTo(8);
    }

    @Test
    void safetyValveReopensAnIdlePartitionButNotAfterAFailure() {
        AdaptiveCap.State shrunk = new AdaptiveCap.State(1, 5000, 0);
        assertThat(AdaptiveCap.check(shrunk, SIX, 0).allowed()).isEqualTo(6);
        assertThat(AdaptiveCap.check(shrunk, SIX, 1).denied()).isTrue();

        AdaptiveCap.State failedFast = AdaptiveCap.observe(new AdaptiveCap.State(2, 0, 0), SIX, 5, true);
        assertThat(failedFast.currentMax()).isEqualTo(1);
        assertThat(AdaptiveCap.check(failedFast, SIX, 0).allowed()).isEqualTo(1);
    }
}
