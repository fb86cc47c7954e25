package io.dispatchpolicy.spi;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DemotionTest {

    @Test
    void aTenantsRingKeepsTheLongestWindowOfEachResolution() {
        List<Demotion> rules = List.of(new Demotion(100, Duration.ofHours(1), "throttled"),
                new Demotion(10, Duration.ofSeconds(10), "slow"), new Demotion(20, Duration.ofMinutes(1), "slower"),
                new Demotion(5, Duration.ofSeconds(90), "slowest"), new Demotion(1, Duration.ofDays(1), "last"));
        assertThat(Demotion.slotsByResolution(rules)).containsExactly(Map.entry(1, 60), Map.entry(60, 1440));
        // 90 s in one-minute buckets: two of them
        assertThat(Demotion.slotsByResolution(List.of(new Demotion(5, Duration.ofSeconds(90), "s")))).containsExactly(Map.entry(60, 2));
        assertThat(Demotion.slotsByResolution(List.of())).isEmpty();
    }

    @Test
    void aWindowIsFromASecondToADay() {
        assertThatThrownBy(() -> new Demotion(1, Duration.ofMillis(500), "s")).isInstanceOf(PolicyDeclarationException.class);
        assertThatThrownBy(() -> new Demotion(1, Duration.ofDays(1).plusSeconds(1), "s")).isInstanceOf(PolicyDeclarationException.class);
        assertThat(new Demotion(0, Duration.ofSeconds(1), "s").resolutionSeconds()).isEqualTo(1);
        assertThat(new Demotion(0, Duration.ofSeconds(61), "s").resolutionSeconds()).isEqualTo(60);
    }
}
