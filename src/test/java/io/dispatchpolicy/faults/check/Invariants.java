package io.dispatchpolicy.faults.check;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The fault suite's invariants, over what the database holds once the storm is over:
 *
 * <ol>
 * <li>every submitted id ended with exactly one COMPLETED execution, none is lost, no execution
 *     belongs to a submission nobody made, nothing is left staged or in flight;</li>
 * <li>no job instance had two executions running at once;</li>
 * <li>no partition (tenant) had more executions running at once than its concurrency cap;</li>
 * <li>for a policy with a {@code capacity(n)}: never more than {@code n} of its executions running at
 *     once, cluster-wide (the executions checked are all of the policy's job, whichever server ran them).</li>
 * </ol>
 */
public final class Invariants {

    private static final int EXAMPLES = 10;

    private Invariants() {
    }

    /**
     * @param stagedIds submissions still staged: not lost, but not done either
     * @param now       the end of executions the database never heard end
     */
    public static Verdict check(Collection<Long> submitted, List<Execution> executions, Collection<Long> stagedIds,
                                List<StagedPartition> staged, List<InflightRow> inflight, int cap, Instant now) {
        return check(submitted, executions, stagedIds, staged, inflight, cap, null, now);
    }

    /**
     * @param capacity the policy's {@code capacity(n)}, null when it has none
     */
    public static Verdict check(Collection<Long> submitted, List<Execution> executions, Collection<Long> stagedIds,
                                List<StagedPartition> staged, List<InflightRow> inflight, int cap, Integer capacity,
                                Instant now) {
        return check(submitted, Set.of(), executions, stagedIds, staged, inflight, cap, capacity, now);
    }

    /**
     * @param stoppedByOperator submissions an operator stopped in the scenario: each must end with exactly one
     *                          execution, STOPPED, and none COMPLETED (the stop stands: it is not run again)
     */
    public static Verdict check(Collection<Long> submitted, Set<Long> stoppedByOperator, List<Execution> executions,
                                Collection<Long> stagedIds, List<StagedPartition> staged, List<InflightRow> inflight, int cap,
                                Integer capacity, Instant now) {
        Map<String, Object> figures = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        exactlyOnce(submitted, stoppedByOperator, executions, new HashSet<>(stagedIds), figures, violations);
        nothingLeft(staged, inflight, figures, violations);
        oneRunPerInstance(executions, now, violations);
        capPerTenant(executions, cap, now, figures, violations);
        if (capacity != null) {
            policyCapacity(executions, capacity, now, figures, violations);
        }
        return new Verdict(figures, violations);
    }

    /**
     * The most executions running at once, by JBeret's start and end times, counted as (3) and (4) count
     * them; {@code now} ends those the database never heard end.
     */
    public static int peakConcurrency(List<Execution> executions, Instant now) {
        return Overlaps.peak(executions.stream().filter(Execution::ran).map(e -> interval(e, now)).toList()).count();
    }

    /**
     * (4) At most {@code capacity} executions of the policy at once, whichever server ran them. An
     * execution recovery marked FAILED counts until recovery released it, as in (3): its slot was taken.
     */
    private static void policyCapacity(List<Execution> executions, int capacity, Instant now, Map<String, Object> figures,
                                       List<String> violations) {
        Overlaps.Peak peak = Overlaps.peak(executions.stream().filter(Execution::ran).map(e -> interval(e, now)).toList());
        figures.put("policyCapacity", capacity);
        figures.put("maxConcurrentPolicy", peak.count());
        figures.put("maxConcurrentPolicyAt", peak.at() == null ? null : peak.at().toString());
        if (peak.count() > capacity) {
            violations.add("the policy ran " + peak.count() + " executions at once at " + peak.at() + ", over its capacity of "
                    + capacity);
        }
    }

    /** (1) One COMPLETED execution per submission (one STOPPED, of those an operator stopped); none lost; none unknown. */
    private static void exactlyOnce(Collection<Long> submitted, Set<Long> stoppedByOperator, List<Execution> executions,
                                    Set<Long> stagedIds, Map<String, Object> figures, List<String> violations) {
        Map<Long, List<Execution>> bySubmission = executions.stream().filter(e -> e.submissionId() != null)
                .collect(Collectors.groupingBy(Execution::submissionId, TreeMap::new, Collectors.toList()));
        Set<Long> ours = new HashSet<>(submitted);
        List<Long> neverRan = submitted.stream().filter(id -> !bySubmission.containsKey(id)).sorted().toList();
        List<Long> lost = neverRan.stream().filter(id -> !stagedIds.contains(id)).toList();
        long stillStaged = neverRan.size() - lost.size();
        List<String> notOnce = new ArrayList<>();
        Map<String, Integer> notOnceByLatest = new TreeMap<>();
        bySubmission.forEach((id, runs) -> {
            long completed = runs.stream().filter(Execution::completed).count();
            if (stoppedByOperator.contains(id)) {
                if (runs.size() != 1 || !"STOPPED".equals(runs.get(0).status())) {
                    notOnce.add("submission " + id + " (stopped by an operator): " + runs);
                    notOnceByLatest.merge("stopped by an operator, then " + runs.get(runs.size() - 1).status(), 1, Integer::sum);
                }
            } else if (ours.contains(id) && completed != 1) {
                notOnce.add("submission " + id + ": " + completed + " COMPLETED of " + runs);
                notOnceByLatest.merge(completed > 1 ? "COMPLETED twice or more" : runs.get(runs.size() - 1).status(), 1, Integer::sum);
            }
        });
        List<String> unknown = executions.stream()
                .filter(e -> e.submissionId() == null || !ours.contains(e.submissionId()))
                .map(e -> e + " of submission " + e.submissionId()).toList();
        List<Execution> restarted = executions.stream().filter(e -> !e.completed() && !e.unfinished())
                .filter(e -> executions.stream().anyMatch(later -> later.instanceId() == e.instanceId() && later.id() > e.id()))
                .toList();

        figures.put("submitted", submitted.size());
        figures.put("executions", executions.size());
        figures.put("completedExecutions", executions.stream().filter(Execution::completed).count());
        figures.put("submissionsCompletedOnce", bySubmission.entrySet().stream().filter(e -> ours.contains(e.getKey()))
                .filter(e -> e.getValue().stream().filter(Execution::completed).count() == 1).count());
        figures.put("executionsByStatus", executions.stream()
                .collect(Collectors.groupingBy(Execution::status, TreeMap::new, Collectors.counting())));
        figures.put("failedThenRestarted", restarted.size());
        figures.put("endedUnrestarted", executions.stream().filter(e -> !e.completed() && !e.unfinished())
                .filter(e -> !restarted.contains(e)).count());
        figures.put("unfinishedExecutions", executions.stream().filter(Execution::unfinished).count());
        figures.put("lostSubmissions", lost.size());
        figures.put("submissionsNeverAdmitted", neverRan.size());

        if (!lost.isEmpty()) {
            violations.add(lost.size() + " of " + submitted.size() + " submissions are LOST: no execution and not staged: "
                    + examples(lost));
        }
        if (stillStaged > 0) {
            violations.add(stillStaged + " of " + submitted.size() + " submissions were never admitted (still staged)");
        }
        if (!notOnce.isEmpty()) {
            violations.add(notOnce.size() + " submissions did not end with exactly one COMPLETED execution (by latest status: "
                    + notOnceByLatest + "): " + examples(notOnce));
        }
        if (!unknown.isEmpty()) {
            violations.add(unknown.size() + " executions belong to no submission of the storm: " + examples(unknown));
        }
    }

    /** (1) Nothing staged, nothing in flight once drained. */
    private static void nothingLeft(List<StagedPartition> staged, List<InflightRow> inflight, Map<String, Object> figures,
                                    List<String> violations) {
        long stagedLeft = staged.stream().mapToLong(StagedPartition::staged).sum();
        figures.put("stagedLeft", stagedLeft);
        figures.put("inflightLeft", inflight.size());
        if (stagedLeft > 0) {
            violations.add(stagedLeft + " staged jobs left in " + staged.size() + " partitions: " + examples(staged));
        }
        if (!inflight.isEmpty()) {
            Map<String, Long> kinds = inflight.stream().collect(Collectors.groupingBy(
                    r -> "JBeret " + r.jberetStatus() + (r.startedAt() == null ? ", started_at null" : ", started_at set"),
                    TreeMap::new, Collectors.counting()));
            violations.add(inflight.size() + " in-flight rows left " + kinds + ": " + examples(inflight));
        }
    }

    /** (2) The executions of one job instance ran one after another. */
    private static void oneRunPerInstance(List<Execution> executions, Instant now, List<String> violations) {
        Map<Long, List<Overlaps.Interval>> byInstance = executions.stream().filter(Execution::ran)
                .collect(Collectors.groupingBy(Execution::instanceId,
                        Collectors.mapping(e -> interval(e, now), Collectors.toList())));
        List<String> overlaps = byInstance.values().stream().filter(runs -> runs.size() > 1)
                .flatMap(runs -> Overlaps.overlapping(runs).stream()).toList();
        if (!overlaps.isEmpty()) {
            violations.add(overlaps.size() + " job instances had two executions running at once: " + examples(overlaps));
        }
    }

    /** (3) At most {@code cap} executions of one tenant at once. */
    private static void capPerTenant(List<Execution> executions, int cap, Instant now, Map<String, Object> figures,
                                     List<String> violations) {
        Map<String, List<Overlaps.Interval>> byTenant = executions.stream().filter(Execution::ran)
                .collect(Collectors.groupingBy(e -> Objects.requireNonNullElse(e.tenant(), "(none)"), TreeMap::new,
                        Collectors.mapping(e -> interval(e, now), Collectors.toList())));
        Map<String, Integer> maxPerTenant = new TreeMap<>();
        List<String> over = new ArrayList<>();
        byTenant.forEach((tenant, runs) -> {
            Overlaps.Peak peak = Overlaps.peak(runs);
            maxPerTenant.put(tenant, peak.count());
            if (peak.count() > cap) {
                over.add(tenant + " ran " + peak.count() + " at once at " + peak.at());
            }
        });
        figures.put("maxConcurrentPerTenant", maxPerTenant.values().stream().mapToInt(Integer::intValue).max().orElse(0));
        figures.put("maxConcurrentByTenant", maxPerTenant);
        figures.put("maxConcurrentOverall", Overlaps.peak(executions.stream().filter(Execution::ran)
                .map(e -> interval(e, now)).toList()).count());
        if (executions.stream().anyMatch(e -> e.exitStatus() != null && e.exitStatus().startsWith("FAILED by dispatch"))) {
            // Why the overall figure can exceed the batch thread pool after a crash.
            figures.put("concurrencyNote", "executions recovery marked FAILED count as running until recovery released "
                    + "them (JBeret stamps their endtime then): the time their slot stayed taken");
        }
        if (!over.isEmpty()) {
            violations.add(over.size() + " tenants exceeded the concurrency cap of " + cap + ": " + examples(over));
        }
    }

    private static Overlaps.Interval interval(Execution e, Instant now) {
        Instant end = e.runEnd(now);
        return new Overlaps.Interval(e.started(), end.isBefore(e.started()) ? e.started() : end, e);
    }

    private static String examples(List<?> items) {
        String shown = items.stream().limit(EXAMPLES).map(String::valueOf).collect(Collectors.joining("; "));
        return items.size() > EXAMPLES ? shown + "; … and " + (items.size() - EXAMPLES) + " more" : shown;
    }
}
