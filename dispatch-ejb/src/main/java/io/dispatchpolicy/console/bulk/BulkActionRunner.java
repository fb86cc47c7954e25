package io.dispatchpolicy.console.bulk;

import io.dispatchpolicy.completion.JobStops;
import io.dispatchpolicy.console.jobs.JobActions;
import io.dispatchpolicy.console.jobs.JobRequestRefused;
import io.dispatchpolicy.console.monitoring.DeadJobs;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.staging.DiscardedJobs;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Runs bulk actions (ADR 0039) one batch per transaction, from the node's maintenance: a batch claims the
 * oldest running action (its row locked, so no other node runs a batch of it meanwhile), acts on the next
 * jobs its filter matches after its cursor, and records how far it got. A node that dies loses at most its
 * batch's transaction; the next node's maintenance carries on from the cursor. Staged jobs go a batch per
 * statement under their partitions' locks, held for that statement only, so the tick admits beside it.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class BulkActionRunner {

    private static final Logger LOG = Logger.getLogger(BulkActionRunner.class.getName());

    /** Staged jobs per batch: one statement, a few tens of milliseconds. */
    static final int STAGED_BATCH = 2_000;
    /** Jobs per batch for the actions that go one job at a time (stop, restart, retry). */
    static final int JOB_BATCH = 100;

    @Inject
    BulkActionRepository repository;

    @Inject
    JobActions jobActions;

    @Inject
    JobStops stops;

    @Inject
    DeadJobs dead;

    @Inject
    DiscardedJobs discarded;

    @Inject
    TickSignal signal;

    @Inject
    EngineMetrics metrics;

    /** The action the last batch claimed (kept when its transaction rolls back), for the failure's record. */
    private volatile long lastClaimed;

    /**
     * One batch of the oldest running action this node can take.
     *
     * @return the action it worked on, empty when none was running (or each was another node's batch)
     */
    public Optional<Long> runBatch() {
        Optional<BulkActionRepository.Claimed> claimed = repository.claim();
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        BulkActionRepository.Claimed action = claimed.get();
        lastClaimed = action.id();
        if (action.cancelRequested()) {
            repository.progress(action.id(), action.cursor(), 0, 0, 0, null, "cancelled");
            LOG.info(() -> "Bulk action " + action.id() + " cancelled");
            return Optional.of(action.id());
        }
        int size = action.kind() == BulkKind.DISCARD || action.kind() == BulkKind.EXPIRE ? STAGED_BATCH : JOB_BATCH;
        List<BulkActionRepository.Picked> batch = repository.pick(action.kind(), action.filter(), action.cursor(), action.upper(), size);
        int done = 0;
        int failed = 0;
        String error = null;
        switch (action.kind()) {
            case DISCARD, EXPIRE -> {
                if (!batch.isEmpty()) {
                    String reason = action.kind() == BulkKind.DISCARD ? "discarded" : "expired";
                    Map<String, Integer> taken = discarded.discard(batch.stream().map(BulkActionRepository.Picked::submissionId).toList(),
                            reason, "bulk action " + action.id() + " by " + action.requestedBy());
                    taken.forEach((policy, n) -> metrics.discardedOnCommit(policy, reason, n));
                    done = taken.values().stream().mapToInt(Integer::intValue).sum();
                }
            }
            case STOP -> {
                for (BulkActionRepository.Picked job : batch) {
                    stops.stop(job.executionId());
                    done++;
                }
            }
            case RESTART -> {
                for (BulkActionRepository.Picked job : batch) {
                    try {
                        // "… is staged …" when it was restarted; otherwise it says why not (restarted or ended meanwhile): skipped
                        if (jobActions.restart(job.submissionId(), action.requestedBy()).contains(" is staged")) {
                            done++;
                        }
                    } catch (JobRequestRefused refused) {
                        // a check before anything is written (its policy not declared here): the rest go on
                        failed++;
                        error = "job " + job.submissionId() + ": " + refused.getMessage();
                    }
                }
            }
            case RETRY -> done = batch.isEmpty() ? 0 : dead.retryNow(batch.stream().map(BulkActionRepository.Picked::submissionId).toList());
            default -> throw new IllegalStateException("unknown bulk action " + action.kind());
        }
        int skipped = batch.size() - done - failed;
        long cursor = batch.isEmpty() ? action.cursor() : batch.get(batch.size() - 1).submissionId();
        boolean finished = batch.size() < size;
        repository.progress(action.id(), cursor, done, skipped, failed, error, finished ? "done" : null);
        if (done > 0 && (action.kind() == BulkKind.RESTART || action.kind() == BulkKind.RETRY)) {
            signal.workArrivesOnCommit();
        }
        if (finished) {
            LOG.info(() -> "Bulk action " + action.id() + " (" + action.kind() + " " + action.filter() + ") done");
        }
        return Optional.of(action.id());
    }

    /** The action the last batch claimed, 0 before any. */
    public long lastClaimed() {
        return lastClaimed;
    }

    /** Ends an action whose batches keep failing (a database error): what it did so far stays done. */
    public void fail(long id, String error) {
        repository.fail(id, error);
    }
}
