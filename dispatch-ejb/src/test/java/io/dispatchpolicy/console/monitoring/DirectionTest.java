package io.dispatchpolicy.console.monitoring;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DirectionTest {

    private static List<TrendPoint> trend(long... pending) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return java.util.stream.IntStream.range(0, pending.length)
                .mapToObj(i -> new TrendPoint(t.plusSeconds(60L * i), pending[i])).toList();
    }

    @Test
    void comparesTheEndsWithFivePercentTolerance() {
        assertThat(DefaultMonitoring.direction(trend(100, 300, 104))).isEqualTo("flat");
        assertThat(DefaultMonitoring.direction(trend(100, 50, 120))).isEqualTo("up");
        assertThat(DefaultMonitoring.direction(trend(100, 90, 10))).isEqualTo("down");
        assertThat(DefaultMonitoring.direction(trend(7))).isEqualTo("flat");
    }

    @Test
    void minutesNoTickRanInSayNothing() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        List<TrendPoint> gaps = List.of(new TrendPoint(t, null), new TrendPoint(t.plusSeconds(60), 100L),
                new TrendPoint(t.plusSeconds(120), null), new TrendPoint(t.plusSeconds(180), 150L), new TrendPoint(t.plusSeconds(240), null));
        assertThat(DefaultMonitoring.direction(gaps)).as("the first and last sampled minutes").isEqualTo("up");
        assertThat(DefaultMonitoring.direction(List.of(new TrendPoint(t, null), new TrendPoint(t.plusSeconds(60), 5L)))).isEqualTo("flat");
    }
}
