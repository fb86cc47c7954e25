package io.dispatchpolicy.console.monitoring;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HintsTest {

    private static List<Hint> hints(double busy, Double drain, double failures, long partitions, double rate, Double target) {
        return Hints.of(busy, drain, failures, partitions, rate, target);
    }

    @Test
    void quietWhenEverythingIsFine() {
        assertThat(hints(0.3, 5.0, 0.001, 1000, 10, 100.0)).isEmpty();
    }

    @Test
    void tickSaturation() {
        assertThat(hints(0.60, null, 0, 0, 0, null)).extracting(Hint::level).containsExactly("warning");
        assertThat(hints(0.85, null, 0, 0, 0, null)).singleElement()
                .satisfies(h -> assertThat(h.text()).contains("85%").contains("Shard"))
                .extracting(Hint::level).isEqualTo("critical");
    }

    @Test
    void drainTime() {
        assertThat(hints(0, 29.0, 0, 0, 0, null)).isEmpty();
        assertThat(hints(0, 30.0, 0, 0, 0, null)).extracting(Hint::level).containsExactly("warning");
        assertThat(hints(0, 120.0, 0, 0, 0, null)).extracting(Hint::level).containsExactly("critical");
    }

    @Test
    void failureRate() {
        assertThat(hints(0, null, 0.01, 0, 0, null)).extracting(Hint::level).containsExactly("warning");
        assertThat(hints(0, null, 0.05, 0, 0, null)).singleElement().satisfies(h -> assertThat(h.text()).startsWith("5.0%"));
    }

    @Test
    void manyPartitionsAndTheThroughputTarget() {
        assertThat(hints(0, null, 0, 50_000, 0, null)).extracting(Hint::level).containsExactly("warning");
        assertThat(hints(0, null, 0, 0, 95, 100.0)).singleElement().satisfies(h -> assertThat(h.text()).contains("95%"));
    }
}
