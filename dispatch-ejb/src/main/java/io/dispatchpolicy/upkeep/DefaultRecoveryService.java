package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.admission.OwnedInflight;
import io.dispatchpolicy.admission.ReleasedInflight;
import io.dispatchpolicy.completion.FailedJobs;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.follow.JobEnd;
import io.dispatchpolicy.follow.JobEnds;
import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.jberet.JobInstances;
import io.dispatchpolicy.infrastructure.jberet.LocalRunners;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.batch.runtime.BatchStatus;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Recovery, exactly once: each row is taken by one statement under row locks ({@code SKIP LOCKED}),
 * and a runner's start mark only succeeds for the row's owner. The same two repairs serve a dead
 * node's rows and this node's own orphans: a row that never started is started, a row that started
 * is released and its execution settled (failed and restarted through the policy if it was still
 * running by JBeret's record).
 */
// A singleton with bean-managed concurrency (it holds no state): the loops that call it name it in @DependsOn, so it stops only after they have.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DefaultRecoveryService implements RecoveryService {

    private static final Logger LOG = Logger.getLogger(DefaultRecoveryService.class.getName());

    /** Rows taken per transaction, so one recovery pass stays short. */
    static final int BATCH = 500;

    @Inject
    InflightRepository inflight;

    @Inject
    StagingRepository staging;

    @Inject
    JobInstances instances;

    @Inject
    ExecutionFactory executions;

    @Inject
    LocalRunners runners;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    ThisNode node;

    @Inject
    FailedJobs failedJobs;

    @Inject
    JobEnds jobEnds;



    @Inject
    DispatchSettings settings;

    @Override
    public int recoverUnstarted() {
        List<Long> adopted = inflight.adoptUnstarted(node.id(), settings.inflightStaleAfter(), settings.livenessGrace(), BATCH);
        start(adopted, "admitted execution(s) of gone nodes whose runner never started");
        return adopted.size();
    }

    @Override
    public int releaseDeadNodesJobs() {
        List<ReleasedInflight> released = inflight.releaseStartedOfDeadNodes(node.id(), settings.inflightStaleAfter(),
                settings.livenessGrace(), BATCH);
        // A gone node's job that FAILED failed on its own (its node was alive to see it end).
        settle(released, false, "FAILED by dispatch: the node running it is gone");
        if (!released.isEmpty()) {
            LOG.warning(() -> "ReleasedInflight " + released.size() + " in-flight job(s) of gone nodes and restarted the "
                    + "interrupted ones: " + released.stream().map(ReleasedInflight::executionId).toList());
        }
        return released.size();
    }

    @Override
    public int reconcile() {
        // Rows first, runners second: a committed row's runner is held before its commit, so a row read
        // here whose execution is unheld has no runner left in this JVM. Checked again once the rows are
        // locked, since only a transaction holding a row's lock can start a new runner for it: that makes
        // two reconciles at once (a test, the maintenance thread) safe too.
        List<Long> candidates = inflight.ownedBy(node.id()).stream().filter(id -> !runners.holds(id)).limit(BATCH).toList();
        if (candidates.isEmpty()) {
            return 0;
        }
        List<Long> unstarted = new ArrayList<>();
        List<Long> started = new ArrayList<>();
        for (OwnedInflight row : inflight.lockOwn(node.id(), candidates)) {
            if (!runners.holds(row.executionId())) {
                (row.started() ? started : unstarted).add(row.executionId());
            }
        }
        start(unstarted, "execution(s) of this node whose runner was lost before it started");
        List<ReleasedInflight> released = inflight.release(started);
        // A runner that could not record its end ran while the database was going away: a FAILED end is
        // the outage's doing as likely as the job's, so it is restarted; COMPLETED stands.
        settle(released, true, "FAILED by dispatch: its runner was lost while the database was unreachable");
        if (!released.isEmpty()) {
            LOG.info(() -> "ReleasedInflight " + released.size() + " in-flight job(s) of this node whose runner had ended "
                    + "without recording it: " + released.stream().map(ReleasedInflight::executionId).toList());
        }
        return unstarted.size() + released.size();
    }

    /** Starts executions whose rows this transaction holds and whose runner never started. */
    private void start(List<Long> executionIds, String what) {
        int resumed = 0;
        for (long executionId : executionIds) {
            if (executions.resume(executionId, node.id(), inflight.submitterOf(executionId).orElse(null),
                    inflight.threadsOf(executionId))) {
                resumed++;
            } else {
                // Its execution is gone or no longer STARTING: nothing to start; the row is stale bookkeeping.
                inflight.forget(executionId);
            }
        }
        if (resumed > 0) {
            int count = resumed;
            LOG.info(() -> "Started " + count + " " + what + ": " + executionIds);
        }
    }

    /**
     * Settles released rows' executions and restarts those that were interrupted: still running when their
     * runner was lost, STOPPED without an operator's request (a suspend, a shutdown, another node's server
     * stopping them through the shared repository), or FAILED when {@code failedToo}. Staged again, through
     * the gates or, if the policy's retry strategy says bypass, straight to JBeret at the tick's next iteration.
     */
    private void settle(List<ReleasedInflight> released, boolean failedToo, String reason) {
        for (ReleasedInflight r : released) {
            ExecutionFactory.Abandoned abandoned = executions.failAbandoned(r.executionId(), reason);
            if (abandoned == null) {
                continue;
            }
            if (!(abandoned.interrupted()
                    || (abandoned.was() == BatchStatus.STOPPED && !r.stopRequested())
                    || (abandoned.was() == BatchStatus.FAILED && failedToo))) {
                // It ended on its own, or as an operator asked, and its runner's end never committed: what that end
                // would have done is done here — a failure retried or buried by its policy, and a last end's followers
                // decided (ADR 0051), in the transaction that frees its slot, so exactly once.
                boolean forGood = abandoned.was() != BatchStatus.FAILED || r.policyName() == null
                        || failedJobs.failed(abandoned.execution(), new FailedJobs.Run(r.submissionId(), r.partitionId(), r.policyName(),
                        r.priority(), r.attempt()), null);
                if (forGood) {
                    jobEnds.ended(new JobEnd(r.submissionId(), r.executionId(), abandoned.execution().getJobName(), abandoned.was(),
                            abandoned.execution().getExitStatus()));
                }
                continue;
            }
            String jobName = instances.jobName(r.executionId());
            RetryStrategy strategy = heldPolicies.effectiveIfDeclared(r.policyName())
                    .map(EffectivePolicy::retryStrategy).orElse(RetryStrategy.RESTAGE);
            // the same attempt: it was interrupted, it did not fail on its own
            staging.restage(new Restart(r.submissionId(), r.partitionId(), jobName, r.executionId(), abandoned.user(),
                    r.priority(), r.attempt(), null, strategy == RetryStrategy.BYPASS));
        }
    }
}
