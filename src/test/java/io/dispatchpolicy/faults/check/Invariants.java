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
 * <li>no partition (tenant) had more executions running at once than its concurrency cap.</li>
 * </ol>
 */
public final class Invariants {

    private static final int EXAMPLES = 10;

    private Invariants() {
    }

    public static Verdict check(Collection<Long> submitted, List<Execution> executions, List<StagedPartition> staged,
                                List<InflightRow> inflight, int cap, Instant now) {
        Map<String, Object> figures = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        exactlyOnce(submitted, executions, figures, violations);
        nothingLeft(staged, inflight, figures, violations);
        oneRunPerInstance(executions, now, violations);
        capPerTenant(executions, cap, now, figures, violations);
        return new Verdict(figures, violations);
    }

    /** (1) One COMPLETED execution per submission; none lost; none unknown. */
    private static void exactlyOnce(Collection<Long> submitted, List<Execution> executions, Map<String, Object> figures,
                                    List<String> violations) {
        Map<Long, List<Execution>> bySubmission = executions.stream().filter(e -> e.submissionId() != null)
                .collect(Collectors.groupingBy(Execution::submissionId, TreeMap::new, Collectors.toList()));
        Set<Long> ours = new HashSet<>(submitted);
        List<Long> lost = submitted.stream().filter(id -> !bySubmission.containsKey(id)).sorted().toList();
        List<String> notOnce = new ArrayList<>();
        bySubmission.forEach((id, runs) -> {
            long completed = runs.stream().filter(Execution::completed).count();
            if (ours.contains(id) && completed != 1) {
                notOnce.add("submission " + id + ": " + completed + " COMPLETED of " + runs);
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

        if (!lost.isEmpty()) {
            violations.add(lost.size() + " of " + submitted.size() + " submissions have no execution at all (lost or still staged): "
                    + examples(lost));
        }
        if (!notOnce.isEmpty()) {
            violations.add(notOnce.size() + " submissions did not end with exactly one COMPLETED execution: " + examples(notOnce));
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
            violations.add(inflight.size() + " in-flight rows left: " + examples(inflight));
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
