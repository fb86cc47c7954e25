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
        return new Submission("j", JobParameters.of(new Properties()), "k", "default", "{}", 0, null, null, tenant, "");
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

    @Test
    void boundsOfASingleJobAreTheSidesOfEachThreshold() {
        assertThat(DemotedPlacement.bounds(List.of(job("a")), RULES, Map.of("a", new int[] {3, 8}))).containsExactly(
                new DemotedPlacement.Bound("a", 0, 0, 5), new DemotedPlacement.Bound("a", 1, 8, Integer.MAX_VALUE));
        // nobody's jobs, and tenants without counts, have no bounds
        assertThat(DemotedPlacement.bounds(List.of(job(null), job("b")), RULES, Map.of("a", new int[] {3, 8}))).isEmpty();
    }

    @Test
    void aCountInsideItsBoundsPlacesAsTheGuessAndOneOutsideDoesNot() {
        // every guess and every real count of a tenant's call of 4 and a bystander's single job, against two rules
        List<Submission> call = List.of(job("a"), job("b"), job("a"), job("a"), job("a"));
        int[] values = {0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 40};
        for (int g0 : values) {
            for (int g1 : values) {
                Map<String, int[]> guess = Map.of("a", new int[] {g0, g1}, "b", new int[] {g1, g0});
                List<String> guessed = lanes(DemotedPlacement.place(call, RULES, guess));
                List<DemotedPlacement.Bound> bounds = DemotedPlacement.bounds(call, RULES, guess);
                assertThat(bounds).hasSize(4);
                for (int r0 : values) {
                    for (int r1 : values) {
                        Map<String, int[]> real = Map.of("a", new int[] {r0, r1}, "b", new int[] {g1, g0});
                        boolean inside = bounds.stream().allMatch(b -> b.holds(real.get(b.tenant())[b.rule()]));
                        if (inside) {
                            assertThat(lanes(DemotedPlacement.place(call, RULES, real)))
                                    .as("guess %d/%d, real %d/%d", g0, g1, r0, r1).isEqualTo(guessed);
                        }
                        // a bound is exact where it is a single count: anything else moves a job
                        bounds.stream().filter(b -> b.tenant().equals("a") && b.min() == b.max()
                                && real.get("a")[b.rule()] != b.min() && b.rule() == 1)
                                .findAny().ifPresent(b -> assertThat(lanes(DemotedPlacement.place(call, RULES, real)))
                                        .as("guess %d/%d, real %d/%d", g0, g1, r0, r1).isNotEqualTo(guessed));
                    }
                }
            }
        }
    }
}
