package io.dispatchpolicy.domain.lane;

import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.spi.Demotion;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Places a call's jobs by their tenants' counts (ADR 0011): the i-th of a tenant's n jobs in the call is
 * judged on its window's count without the n - i jobs after it, and goes to the lane of the last rule
 * whose threshold that count exceeds; a job under every threshold, or counted for nobody, keeps its lane.
 */
public final class DemotedPlacement {

    private DemotedPlacement() {
    }

    /**
     * @param jobs    the call's jobs, in submission order
     * @param rules   the policy's rules in force, in declaration order
     * @param windows per tenant, its count in each rule's window (same order as {@code rules}) with every
     *                job of this call counted; a tenant missing here is not demoted
     * @return the jobs, each in the lane it is staged in
     */
    public static List<Submission> place(List<Submission> jobs, List<Demotion> rules, Map<String, int[]> windows) {
        Map<String, Integer> inCall = tally(jobs, new HashMap<>());
        Map<String, Integer> seen = new HashMap<>();
        List<Submission> placed = new ArrayList<>(jobs.size());
        for (Submission s : jobs) {
            int[] counts = s.tenant() == null ? null : windows.get(s.tenant());
            if (counts == null) {
                placed.add(s);
                continue;
            }
            int after = inCall.get(s.tenant()) - seen.merge(s.tenant(), 1, Integer::sum);
            String lane = s.lane();
            for (int r = rules.size() - 1; r >= 0; r--) {
                if (counts[r] - after > rules.get(r).threshold()) {
                    lane = rules.get(r).lane();
                    break;
                }
            }
            placed.add(lane.equals(s.lane()) ? s : s.inLane(lane));
        }
        return placed;
    }

    /** Adds each tenant's number of jobs in {@code jobs} (jobs counted for nobody left out) to {@code into}; @return it. */
    public static <M extends Map<String, Integer>> M tally(List<Submission> jobs, M into) {
        for (Submission s : jobs) {
            if (s.tenant() != null) {
                into.merge(s.tenant(), 1, Integer::sum);
            }
        }
        return into;
    }
}
