package io.dispatchpolicy.completion;

import io.dispatchpolicy.admission.AdaptiveRepository;
import io.dispatchpolicy.admission.InflightEnd;
import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.follow.JobEnd;
import io.dispatchpolicy.follow.JobEnds;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.jberet.RunnerLifecycle;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.CompletionCounter;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.observe.HistoryRecorder;
import io.dispatchpolicy.partition.OverrideCodec;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.GateParameterException;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.policy.PolicyRegistry;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import org.jberet.runtime.JobExecutionImpl;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * In-flight tracking at the exact start and end of each admitted execution: the start mark (the
 * exactly-once latch and the queue lag) and, at the end, one short transaction that frees the slot,
 * retries or buries a failed job ({@link FailedJobs}), decides what follows a last end ({@link JobEnds})
 * and feeds the lag and outcome to the partition's adaptive gates.
 */
// A singleton with bean-managed concurrency (it holds no state): the loops that call it name it in @DependsOn, so it stops only after they have.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DefaultInflightTracker implements RunnerLifecycle {

    private static final Logger LOG = Logger.getLogger(DefaultInflightTracker.class.getName());

    @Inject
    EngineMetrics metrics;

    @Inject
    HistoryRecorder history;

    @Inject
    InflightRepository inflight;

    @Inject
    AdaptiveRepository adaptive;

    @Inject
    PolicyRegistry policies;

    @Inject
    CompletionCounter completions;

    @Inject
    TickSignal signal;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    FailedJobs failedJobs;

    @Inject
    ExecutionFactory executions;

    @Inject
    JobEnds jobEnds;

    @Override
    public boolean starting(long executionId, UUID node) {
        return inflight.started(executionId, node);
    }

    @Override
    public void finished(JobExecution execution) {
        long executionId = execution.getExecutionId();
        BatchStatus status = execution.getBatchStatus();
        String timedOut = null;
        if ((status == BatchStatus.STOPPED || status == BatchStatus.FAILED) && execution instanceof JobExecutionImpl impl) {
            // The watchdog stopped it for its timeout (ADR 0030): whatever the stop or the interrupt made of its
            // end, it is recorded FAILED with the reason, and its policy's retries apply. A job that COMPLETED
            // before the stop reached it keeps its end: its work is done.
            timedOut = inflight.timeoutReason(executionId).orElse(null);
            if (timedOut != null) {
                executions.recordFailed(impl, timedOut);
                status = BatchStatus.FAILED;
            }
        }
        completions.record(status == BatchStatus.FAILED);
        if (status == BatchStatus.STOPPED) {
            // An operator's stop, or this server's shutdown stopping its jobs: which one is known only
            // later, so the row keeps its slot until this node's reconcile or the recovery of the node.
            inflight.endedStopped(executionId);
            return;
        }
        Optional<InflightEnd> row = inflight.finished(executionId, status.name());
        if (row.isEmpty()) {
            return;
        }
        InflightEnd f = row.get();
        if (f.policyName() != null) {
            metrics.finishedOnCommit(f.policyName(), status.name());
            history.finishedOnCommit(f.partitionId(), f.policyName(), status.name());
        }
        if (f.woke()) {
            signal.workArrivesOnCommit();
        }
        signal.slotFreesOnCommit(f.policyName());
        // Retried, the submission goes on; else this is its last end, and what follows it is decided here (ADR 0051).
        boolean forGood = status != BatchStatus.FAILED || f.policyName() == null || failedJobs.failed(execution, f, timedOut);
        if (forGood && f.followed()) {
            jobEnds.ended(new JobEnd(f.submissionId(), executionId, execution.getJobName(), status, execution.getExitStatus()));
        }
        // Most policies have no adaptive gate: decide that from the declaration, without reading
        // the policy's settings on every job's completion.
        if (f.policyName() == null || policies.named(f.policyName()).map(p -> p.adaptiveGateIds().isEmpty()).orElse(true)) {
            return;
        }
        Optional<EffectivePolicy> held = heldPolicies.effectiveIfDeclared(f.policyName());
        if (held.isEmpty()) {
            return; // the slot is freed all the same; the tick reports the held policy
        }
        EffectivePolicy policy = held.get().withGateOverrides(
                OverrideCodec.read(f.overridesJson()).inForce(System.currentTimeMillis()));
        Map<String, Object> context = JsonCodec.readScalars(f.contextJson());
        boolean failed = status == BatchStatus.FAILED;
        for (String gateId : policy.adaptiveGateIds()) {
            try {
                AdaptiveCap.Params params = policy.adaptiveParams(gateId, context);
                adaptive.update(f.gateId(), gateId, s -> AdaptiveCap.observe(s, params, f.lagMs(), failed));
            } catch (GateParameterException e) {
                LOG.log(Level.WARNING, "No adaptive feedback for execution " + executionId + ": " + e.getMessage());
            }
        }
    }
}
