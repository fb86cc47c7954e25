package io.dispatchpolicy.console.monitoring;

import java.util.ArrayList;
import java.util.List;

/** The thresholds at which the dashboard speaks up, and what it says. */
public final class Hints {

    static final double TICK_WARNING = 0.60;
    static final double TICK_CRITICAL = 0.85;
    static final double DRAIN_WARNING_MINUTES = 30;
    static final double DRAIN_CRITICAL_MINUTES = 120;
    static final double FAILURE_WARNING = 0.01;
    static final double FAILURE_CRITICAL = 0.05;
    static final long MANY_PARTITIONS = 50_000;
    static final double TARGET_WARNING = 0.90;

    private Hints() {
    }

    public static List<Hint> of(double tickBusyRatio, Double drainMinutes, double failureRate, long partitions,
                                double admitRate, Double throughputTarget) {
        List<Hint> hints = new ArrayList<>();
        String busy = Math.round(tickBusyRatio * 100) + "%";
        if (tickBusyRatio >= TICK_CRITICAL) {
            hints.add(Hint.critical("Ticks spend " + busy + " of dispatch.tick-max-duration admitting: the tick is near "
                    + "saturation. Shard the work over more nodes or lower dispatch.admission-batch-size."));
        } else if (tickBusyRatio >= TICK_WARNING) {
            hints.add(Hint.warning("Ticks spend " + busy + " of dispatch.tick-max-duration admitting. Consider more nodes "
                    + "or a lower dispatch.admission-batch-size before it saturates."));
        }
        if (drainMinutes != null && drainMinutes >= DRAIN_CRITICAL_MINUTES) {
            hints.add(Hint.critical("At the current admission rate the backlog takes about " + Math.round(drainMinutes)
                    + " minutes to drain."));
        } else if (drainMinutes != null && drainMinutes >= DRAIN_WARNING_MINUTES) {
            hints.add(Hint.warning("At the current admission rate the backlog takes about " + Math.round(drainMinutes)
                    + " minutes to drain."));
        }
        String failures = String.format(java.util.Locale.ROOT, "%.1f%%", failureRate * 100);
        if (failureRate >= FAILURE_CRITICAL) {
            hints.add(Hint.critical(failures + " of the executions that ended in the last 15 minutes FAILED."));
        } else if (failureRate >= FAILURE_WARNING) {
            hints.add(Hint.warning(failures + " of the executions that ended in the last 15 minutes FAILED."));
        }
        if (partitions >= MANY_PARTITIONS) {
            hints.add(Hint.warning(partitions + " partitions: consider a coarser partitionBy, or a shorter "
                    + "dispatch.partition-inactive-after so idle ones are swept sooner."));
        }
        if (throughputTarget != null && admitRate >= throughputTarget * TARGET_WARNING) {
            hints.add(Hint.warning(String.format(java.util.Locale.ROOT,
                    "Admitting %.1f jobs/s, %d%% of dispatch.adapter-throughput-target (%.1f/s).",
                    admitRate, Math.round(admitRate / throughputTarget * 100), throughputTarget)));
        }
        return hints;
    }

    /** One critical hint per shard with waiting work that no live node admits. */
    /** Policies with partitions that no deployment here declares: {partitions, jobs staged} each. */
    public static List<Hint> undeclared(java.util.Map<String, long[]> byPolicy) {
        return byPolicy.entrySet().stream().map(e -> Hint.warning("Policy " + e.getKey() + " is not declared by this deployment: its "
                + e.getValue()[0] + (e.getValue()[0] == 1 ? " partition" : " partitions") + " (" + e.getValue()[1]
                + " jobs staged) wait, uncounted above, until an application declaring it is deployed again "
                + "(or the sweeper forgets them once idle).")).toList();
    }

    public static List<Hint> unserved(List<UnservedShard> shards) {
        return shards.stream().map(s -> Hint.critical("Shard '" + s.shard() + "' has " + s.pending() + " jobs waiting in "
                + s.partitions() + (s.partitions() == 1 ? " partition" : " partitions")
                + " and no live node admits it: name it in some node's dispatch.shards.")).toList();
    }
}
