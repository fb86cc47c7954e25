package io.dispatchpolicy.running;

import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.admission.TimedOut;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.jberet.LocalRunners;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.EngineMetrics;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delivers to this node's JBeret the stops operators asked for on other nodes (ADR 0031), and stops this
 * node's running executions that are past their run timeout, or whose chunk step has written
 * no checkpoint for longer than their progress timeout (ADR 0030). Each node watches the executions its
 * own runners run, every second on its maintenance thread, by the database's clock. A timed-out
 * execution gives up its slots at once (its in-flight row's cost drops to 0, so the tenant's next job
 * can be admitted), is asked to stop through JBeret, and — if its thread still runs it a pass later (a
 * batchlet that ignores {@code stop()}) — is interrupted. When its runner ends, the completion records it
 * FAILED with the reason and the policy's retries apply ({@code DefaultInflightTracker}).
 */
// A singleton with bean-managed concurrency (it holds no state of a pass): the maintenance loop names it in @DependsOn.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ExecutionWatchdog {

    private static final Logger LOG = Logger.getLogger(ExecutionWatchdog.class.getName());

    /** How often each node looks at its running executions: a timeout fires within this of its time. */
    public static final long EVERY_MS = 1_000;

    /**
     * How long after its stop was asked a timed-out job's thread is interrupted if it still runs the job:
     * time for a job that honours {@code stop()} to end on its own first.
     */
    static final long INTERRUPT_AFTER_MS = 1_000;

    @Inject
    RunningRepository running;

    @Inject
    InflightRepository inflight;

    @Inject
    LocalRunners runners;

    @Inject
    JobRuntime runtime;

    @Inject
    ThisNode node;

    @Inject
    TickSignal signal;

    @Inject
    EngineMetrics metrics;

    /** One look at this node's executions; @return how many timed out in it. */
    public int pass() {
        Set<Long> now = runners.heldNow();
        if (now.isEmpty()) {
            return 0;
        }
        int fired = 0;
        for (Watched w : running.watch(node.id(), now)) {
            if (w.stopPending()) {
                deliverStop(w.executionId());
            }
            if (w.timedOut()) {
                if (w.sinceTimedOutMs() >= INTERRUPT_AFTER_MS && runners.interrupt(w.executionId())) {
                    LOG.info(() -> "Execution " + w.executionId() + " still runs " + w.sinceTimedOutMs()
                            + " ms after it was asked to stop for its timeout: its thread is interrupted");
                }
                continue;
            }
            String kind;
            String reason;
            if (w.overran()) {
                kind = "run";
                reason = "timed out after " + JobTimeouts.describe(w.runTimeoutMs());
            } else if (w.stalled() && runners.chunkStepRunningMs(w.executionId()) >= w.progressTimeoutMs()) {
                // (a chunk step that began less than the timeout ago may not have its row yet: what looks like a
                // stall would be the previous step's)
                kind = "progress";
                reason = "no checkpoint for " + JobTimeouts.describe(w.progressTimeoutMs());
            } else {
                continue; // a batchlet step writes no checkpoint while it runs: the progress timeout does not watch it
            }
            if (timeOut(w.executionId(), kind, reason)) {
                fired++;
            }
        }
        return fired;
    }

    /**
     * Hands an operator's stop asked on another node to this node's JBeret, which runs the execution
     * (ADR 0031): as {@code JobOperator.stop} here would — {@code Batchlet.stop()}, or the chunk's next checkpoint.
     */
    private void deliverStop(long executionId) {
        try {
            runtime.stop(executionId);
        } catch (RuntimeException e) {
            // it ended (or has not started) meanwhile: JobExecutionNotRunningException; the request stays on its row
            LOG.log(Level.FINE, e, () -> "Delivering the stop of execution " + executionId);
        }
        inflight.stopDelivered(executionId);
        LOG.info(() -> "Execution " + executionId + ": delivered the stop an operator asked for on another node");
    }

    private boolean timeOut(long executionId, String kind, String reason) {
        Optional<TimedOut> fired = inflight.timedOut(executionId, node.id(), reason);
        if (fired.isEmpty()) {
            return false; // it ended, or recovery moved it, meanwhile
        }
        TimedOut t = fired.get();
        metrics.timedOutOnCommit(t.policyName(), kind);
        signal.slotFreesOnCommit(t.policyName());
        if (t.woke()) {
            signal.workArrivesOnCommit();
        }
        LOG.info(() -> "Execution " + executionId + " of policy '" + t.policyName() + "': " + reason
                + ": its slot is free, and it is asked to stop; it is recorded FAILED when it ends");
        try {
            runtime.stop(executionId);
        } catch (RuntimeException e) {
            // it ended between the two (JobExecutionNotRunningException), or JBeret could not reach it: its
            // runner's end records the timeout all the same, and the next pass interrupts it if it still runs
            LOG.log(Level.FINE, e, () -> "Stopping timed-out execution " + executionId);
        }
        return true;
    }
}
