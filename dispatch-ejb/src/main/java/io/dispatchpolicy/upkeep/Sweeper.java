package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.tick.DueJobs;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Optional;

/**
 * Deletes what the engine no longer needs, on {@code dispatch.sweep-interval}: tick samples, per-minute
 * history and denial episodes past {@code metrics-retention}, submission records, schedules' ended occurrences and decided continuations past
 * {@code admission-retention}, partitions empty and
 * idle past {@code partition-inactive-after} (their gate state with them), adaptive rows not
 * updated for as long, dead jobs past {@code dead-retention} (logged, never silent), tenants' submission
 * counts older than the longest demotion window (a day), and JBeret's finished job instances past
 * {@code execution-retention} / {@code failed-execution-retention} (ADR 0015). One node at a time (an
 * advisory lock); each statement bounded.
 */
// A singleton with bean-managed concurrency: the loops that call it name it in @DependsOn, so it stops only after they
// have. Its one piece of state, where the pruning's walk over JBeret's instances stands, is only a hint: from 0 it redoes
// no harm.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class Sweeper {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Sweeper.class.getName());

    @Inject
    SweepRepository sweep;

    @Inject
    DispatchSettings settings;

    @Inject
    DueJobs dueJobs;

    @Inject
    ExecutionRetention retention;

    @Inject
    io.dispatchpolicy.follow.FollowerRepository followers;

    @Inject
    io.dispatchpolicy.follow.GroupRepository groups;

    /** Counts group members taken out before they ran (a deadline, a bulk discard) as discarded (ADR 0052). */
    @Inject
    io.dispatchpolicy.follow.Groups groupSweep;

    /** Followers deleted per sweep at most (ADR 0051); more go at the next. */
    static final int SWEEP_BATCH = 5_000;

    /** The pruning's next window starts after this job instance id. */
    private volatile long pruneAfter;

    /** Waiting jobs aged per call at most; more wait for the next call a second later. */
    public static final int AGE_BATCH = 10_000;

    /**
     * Raises the priorities of waiting jobs whose policy ages them (ADR 0009); every node does it, the
     * rows are taken with SKIP LOCKED. @return jobs aged
     */
    public int agePriorities() {
        return dueJobs.agePriorities(AGE_BATCH);
    }

    /** @return rows deleted; 0 also when another node holds the sweep */
    public int sweep() {
        if (!sweep.lock()) {
            return 0;
        }
        int dead = sweep.deadJobsOlderThan(settings.deadRetention()) + sweep.discardedJobsOlderThan(settings.deadRetention());
        if (dead > 0) {
            LOG.info(() -> "Deleted " + dead + " dead, expired or discarded job(s) older than dispatch.dead-retention ("
                    + settings.deadRetention().toDays() + " days)");
        }
        return dead + sweep.samplesOlderThan(settings.metricsRetention())
                + sweep.historyOlderThan(settings.metricsRetention())
                + sweep.admissionsOlderThan(settings.admissionRetention())
                + sweep.auditOlderThan(settings.auditRetention())
                + sweep.occurrencesOlderThan(settings.admissionRetention())
                + groupSweep.settleDiscarded(null)
                + groups.prune(settings.admissionRetention(), SWEEP_BATCH)
                + followers.prune(settings.admissionRetention(), SWEEP_BATCH)
                + sweep.adaptiveStatsOlderThan(settings.partitionInactiveAfter())
                + sweep.idlePartitionsOlderThan(settings.partitionInactiveAfter())
                + sweep.tenantCountsOutsideEveryWindow()
                + sweep.releasedKeys()
                + pruneExecutions();
    }

    /** One window of JBeret's instances pruned; @return rows deleted (instances and executions). */
    private int pruneExecutions() {
        Optional<Duration> completed = settings.executionRetention();
        Optional<Duration> failed = settings.failedExecutionRetention();
        if (completed.isEmpty() && failed.isEmpty()) {
            return 0;
        }
        ExecutionRetention.Pass pass = retention.prune(pruneAfter, completed, failed);
        pruneAfter = pass.nextAfter();
        return (int) (pass.instances() + pass.executions());
    }
}
