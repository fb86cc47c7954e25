package io.dispatchpolicy.observe;

import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.persistence.AfterCommit;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The engine's figures (names and labels in the guide, "Metrics"; ADR 0017). What a transaction did is
 * counted when it commits, so a rolled-back admission or staging counts nothing. Labels are the
 * policy, the lane, the denial reason and the end status: a partition key never is one (a policy may
 * have millions of them; one series each would swamp the metrics stack).
 */
@ApplicationScoped
public class EngineMetrics {

    private static final Logger LOG = Logger.getLogger(EngineMetrics.class.getName());

    /**
     * Upper bounds (seconds) of the submission-to-admission wait's buckets: cumulative counters with an
     * {@code le} label ({@code dispatch_admission_wait_le_total}: Prometheus's client strips a {@code _bucket} suffix), which PromQL's {@code histogram_quantile} reads as a histogram (WildFly 39 exports
     * no histogram of its own for a deployment's timer).
     */
    static final double[] WAIT_BUCKETS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600};
    private static final String[] WAIT_LABELS = labels(WAIT_BUCKETS);

    @Resource
    TransactionSynchronizationRegistry transactions;

    private volatile Meters meters = Meters.NONE;
    private final Map<String, Reading> gauges = new ConcurrentHashMap<>();
    @PostConstruct
    void connect() {
        try {
            Class.forName("io.micrometer.core.instrument.MeterRegistry", false, EngineMetrics.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.info("No micrometer subsystem on this server: the engine exports no metrics (the guide, \"Metrics\")");
            return;
        }
        try {
            meters = MicrometerMeters.ofDeployment().orElse(Meters.NONE);
            LOG.info(meters == Meters.NONE ? "The micrometer subsystem gives this deployment no registry: the engine exports no metrics"
                    : "The engine's metrics go to WildFly's micrometer registry (the guide, \"Metrics\")");
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "The micrometer registry could not be obtained: the engine exports no metrics", e);
        }
    }

    /** Jobs staged for a policy, counted when the submission commits. */
    public void stagedOnCommit(String policy, int jobs) {
        onCommit(() -> meters.count("dispatch.jobs.staged", jobs, "policy", policy));
    }

    /**
     * Staged jobs a submission control took out without running them (ADR 0036), when that commits:
     * {@code reason} expired, drop-oldest or keep-newest; or an operator's bulk action did (ADR 0039): discarded or expired.
     */
    public void discardedOnCommit(String policy, String reason, int jobs) {
        if (jobs > 0) {
            onCommit(() -> meters.count("dispatch.jobs.discarded", jobs, "policy", policy, "reason", reason));
        }
    }

    /** Submissions absorbed by a job already there (ADR 0036), when that commits: {@code kind} duplicate or debounced. */
    public void absorbedOnCommit(String policy, String kind, int jobs) {
        if (jobs > 0) {
            onCommit(() -> meters.count("dispatch.jobs.absorbed", jobs, "policy", policy, "kind", kind));
        }
    }

    /** Jobs admitted from one partition, counted with their waits when the admission commits. */
    public void admittedOnCommit(String policy, String lane, List<StagedJob> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        Instant now = Instant.now();
        long[] waits = new long[jobs.size()];
        for (int i = 0; i < waits.length; i++) {
            StagedJob job = jobs.get(i);
            // a delayed job waits from its due time, not from its submission
            Instant from = job.dueAt() != null && job.dueAt().isAfter(job.stagedAt()) ? job.dueAt() : job.stagedAt();
            waits[i] = Math.max(0, now.toEpochMilli() - from.toEpochMilli());
        }
        onCommit(() -> {
            meters.count("dispatch.jobs.admitted", waits.length, "policy", policy, "lane", lane == null ? "" : lane);
            long[] perBucket = new long[WAIT_BUCKETS.length];
            for (long waitMs : waits) {
                meters.time("dispatch.admission.wait", waitMs * 1_000_000, "policy", policy);
                for (int b = 0; b < WAIT_BUCKETS.length; b++) {
                    if (waitMs <= WAIT_BUCKETS[b] * 1000) {
                        perBucket[b]++;
                    }
                }
            }
            for (int b = 0; b < WAIT_BUCKETS.length; b++) {
                if (perBucket[b] > 0) {
                    meters.count("dispatch.admission.wait.le", perBucket[b], "policy", policy, "le", WAIT_LABELS[b]);
                }
            }
            meters.count("dispatch.admission.wait.le", waits.length, "policy", policy, "le", "+Inf");
        });
    }

    /** Partitions denied in one iteration, by policy and reason (after the iteration wrote them). */
    public void denied(String policy, String reason, int partitions) {
        meters.count("dispatch.jobs.denied", partitions, "policy", policy, "reason", reason);
    }

    /** An execution of a governed job ended with {@code status} (COMPLETED, FAILED, STOPPED…). */
    public void finishedOnCommit(String policy, String status) {
        onCommit(() -> meters.count("dispatch.executions.finished", 1, "policy", policy, "status", status));
    }

    /** A failed job restaged as a retry. */
    public void retriedOnCommit(String policy) {
        onCommit(() -> meters.count("dispatch.jobs.retried", 1, "policy", policy));
    }

    /** A job whose retries are spent. */
    public void deadOnCommit(String policy) {
        onCommit(() -> meters.count("dispatch.jobs.dead", 1, "policy", policy));
    }

    /** A running execution stopped past its timeout ({@code kind}: {@code run} or {@code progress}; ADR 0030). */
    public void timedOutOnCommit(String policy, String kind) {
        onCommit(() -> meters.count("dispatch.jobs.timed.out", 1, "policy", policy == null ? "" : policy, "timeout", kind));
    }

    /** A webhook's attempt ended ({@code outcome}: delivered, retried, failed; ADR 0041). */
    public void webhook(String webhook, String outcome) {
        meters.count("dispatch.webhook.deliveries", 1, "webhook", webhook, "outcome", outcome);
    }

    /** A schedule's occurrence staged. */
    public void occurrenceOnCommit(String policy) {
        onCommit(() -> meters.count("dispatch.schedule.occurrences", 1, "policy", policy));
    }

    /** One run of this node's tick: how long it lasted and how much of it was admission work. */
    public void tick(long durationNanos, long busyNanos) {
        meters.time("dispatch.tick.duration", durationNanos);
        gauge("dispatch.tick.busy.ratio", durationNanos == 0 ? 0 : (double) busyNanos / durationNanos);
    }

    /**
     * What the database holds now, per policy ({@code figure -> policy -> value}): a policy missing
     * from a figure's map reads 0 from now on (its rows are gone).
     */
    public void sampled(Map<String, Map<String, Long>> byFigure) {
        byFigure.forEach((figure, values) -> {
            Set<String> seen = new HashSet<>();
            values.forEach((policy, value) -> {
                gauge(figure, value, "policy", policy);
                seen.add(key(figure, "policy", policy));
            });
            gauges.forEach((key, holder) -> {
                if (key.startsWith(figure + "|") && !seen.contains(key)) {
                    holder.set(0);
                }
            });
        });
    }

    private void gauge(String name, double value, String... tags) {
        Reading reading = gauges.computeIfAbsent(key(name, tags), k -> {
            Reading created = new Reading();
            meters.gauge(name, created, tags); // the registry holds it weakly; this map keeps it
            return created;
        });
        reading.set(value);
    }

    /** A gauge's latest value. */
    private static final class Reading implements java.util.function.DoubleSupplier {
        private volatile double value;

        void set(double value) {
            this.value = value;
        }

        @Override
        public double getAsDouble() {
            return value;
        }
    }

    private static String key(String name, String... tags) {
        return name + "|" + String.join("|", tags);
    }

    private void onCommit(Runnable count) {
        if (meters != Meters.NONE) {
            AfterCommit.run(transactions, count);
        }
    }

    private static String[] labels(double[] bounds) {
        String[] labels = new String[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            labels[i] = bounds[i] == Math.rint(bounds[i]) ? Long.toString((long) bounds[i]) : Double.toString(bounds[i]);
        }
        return labels;
    }
}
