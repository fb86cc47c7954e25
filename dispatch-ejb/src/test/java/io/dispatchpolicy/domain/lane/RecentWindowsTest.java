package io.dispatchpolicy.domain.lane;

import io.dispatchpolicy.spi.Demotion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RecentWindowsTest {

    private static final List<Demotion> RULES = List.of(new Demotion(100, Duration.ofHours(1), "slow"),
            new Demotion(10, Duration.ofSeconds(10), "slower"));

    @Test
    void aGuessIsTheLastCountsSeenPlusTheCall() {
        RecentWindows recent = new RecentWindows(10);
        recent.remember("p", RULES, Map.of("a", new int[] {50, 9}), 1_000);
        Map<String, int[]> guess = recent.guess("p", RULES, Map.of("a", 2, "b", 1), 2_000);
        assertThat(guess.get("a")).containsExactly(52, 11);
        assertThat(guess.get("b")).containsExactly(1, 1); // never seen: the call alone
        // another policy's tenant of the same name is another tenant
        assertThat(recent.guess("q", RULES, Map.of("a", 1), 2_000).get("a")).containsExactly(1, 1);
    }

    @Test
    void aWindowThatHasPassedSinceCountsNothingAndSoDoChangedRules() {
        RecentWindows recent = new RecentWindows(10);
        recent.remember("p", RULES, Map.of("a", new int[] {50, 9}), 1_000);
        // 10 s later the short window has passed, the hour has not
        assertThat(recent.guess("p", RULES, Map.of("a", 1), 11_000).get("a")).containsExactly(51, 1);
        assertThat(recent.guess("p", RULES, Map.of("a", 1), 10_999).get("a")).containsExactly(51, 10);
        List<Demotion> changed = List.of(new Demotion(100, Duration.ofHours(1), "slow"));
        assertThat(recent.guess("p", changed, Map.of("a", 1), 2_000).get("a")).containsExactly(1);
    }

    @Test
    void pastItsCapacityItForgetsEverything() {
        RecentWindows recent = new RecentWindows(2);
        recent.remember("p", RULES, Map.of("a", new int[] {50, 9}, "b", new int[] {5, 5}), 1_000);
        recent.remember("p", RULES, Map.of("c", new int[] {7, 7}), 1_000);
        assertThat(recent.guess("p", RULES, Map.of("a", 1, "c", 1), 2_000))
                .satisfies(g -> assertThat(g.get("a")).containsExactly(1, 1))
                .satisfies(g -> assertThat(g.get("c")).containsExactly(8, 8));
    }
}
