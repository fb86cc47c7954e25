package io.dispatchpolicy.domain.lane;

import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.spi.Demotion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class DemotedPlacementTest {

    private static final List<Demotion> RULES = List.of(new Demotion(5, Duration.ofMinutes(1), "slow"),
            new Demotion(7, Duration.ofSeconds(10), "slower"));

    private static Submission job(String tenant) {
        return new Submission("j", JobParameters.of(new Properties()), "k", "default", "{}", 0, null, null, tenant, "", 1, 0);
    }

    private static List<String> lanes(List<Submission> jobs) {
        return jobs.stream().map(Submission::lane).toList();
    }

    @Test
    void eachJobOfACallIsJudgedWithoutTheJobsAfterIt() {
        // a quiet tenant's call of 8: counts 8 in both windows with the call counted
        List<Submission> placed = DemotedPlacement.place(java.util.Collections.nCopies(8, job("a")), RULES,
                Map.of("a", new int[] {8, 8}));
        assertThat(lanes(placed)).containsExactly("default", "default", "default", "default", "default", "slow", "slow", "slower");
    }

    @Test
    void theLastMatchingRuleWinsAndTenantsAreCountedApart() {
        List<Submission> placed = DemotedPlacement.place(List.of(job("a"), job("b"), job("a"), job(null)), RULES,
                Map.of("a", new int[] {9, 9}, "b", new int[] {6, 1}));
        assertThat(lanes(placed)).containsExactly("slower", "slow", "slower", "default");
        // counted for nobody, or not counted at all: the lane stays
        assertThat(lanes(DemotedPlacement.place(List.of(job("c")), RULES, Map.of()))).containsExactly("default");
    }

    @Test
    void atTheThresholdAJobStays() {
        assertThat(lanes(DemotedPlacement.place(List.of(job("a")), RULES, Map.of("a", new int[] {5, 5})))).containsExactly("default");
        assertThat(lanes(DemotedPlacement.place(List.of(job("a")), RULES, Map.of("a", new int[] {6, 5})))).containsExactly("slow");
    }
}
