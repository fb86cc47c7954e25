package io.dispatchpolicy.domain.gate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DecayedAdmitsTest {

    private static final long T0 = 1_700_000_000_000L;

    @Test
    void halvesEveryHalfLife() {
        assertThat(DecayedAdmits.at(100, T0, T0 + 60_000, 60)).isCloseTo(50, within(1e-9));
        assertThat(DecayedAdmits.at(100, T0, T0 + 120_000, 60)).isCloseTo(25, within(1e-9));
    }

    @Test
    void addsAdmitsToTheDecayedValue() {
        assertThat(DecayedAdmits.add(100, T0, T0 + 60_000, 60, 3)).isCloseTo(53, within(1e-9));
    }

    @Test
    void idleForDaysIsZeroNotAnError() {
        assertThat(DecayedAdmits.at(1e6, T0, T0 + 30L * 24 * 3600 * 1000, 5)).isZero();
        assertThat(DecayedAdmits.add(1e6, T0, T0 + 30L * 24 * 3600 * 1000, 5, 2)).isEqualTo(2.0);
    }

    @Test
    void neverSeenIsZeroAndClockSkewDoesNotGrowIt() {
        assertThat(DecayedAdmits.at(0, 0, T0, 60)).isZero();
        assertThat(DecayedAdmits.at(10, T0, T0 - 5_000, 60)).isEqualTo(10.0);
    }
}
