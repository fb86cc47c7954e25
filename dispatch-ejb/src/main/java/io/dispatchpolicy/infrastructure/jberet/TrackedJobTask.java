package io.dispatchpolicy.infrastructure.jberet;

import org.jberet.runtime.JobExecutionImpl;
import org.jberet.spi.JobTask;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Wraps JBeret's job runner to mark the exact start and end of an admitted execution. The start mark
 * is also the exactly-once latch: it succeeds only for the node that owns the in-flight row, so a
 * runner whose row recovery gave to another node never runs.
 */
final class TrackedJobTask implements JobTask {

    private static final Logger LOG = Logger.getLogger(TrackedJobTask.class.getName());

    private final JobTask runner;
    private final JobExecutionImpl execution;
    private final UUID node;
    private final RunnerLifecycle lifecycle;

    TrackedJobTask(JobTask runner, JobExecutionImpl execution, UUID node, RunnerLifecycle lifecycle) {
        this.runner = runner;
        this.execution = execution;
        this.node = node;
        this.lifecycle = lifecycle;
    }

    long executionId() {
        return execution.getExecutionId();
    }

    @Override
    public int getRequiredRemainingPermits() {
        return runner.getRequiredRemainingPermits();
    }

    @Override
    public void run() {
        long id = executionId();
        boolean mine;
        try {
            mine = lifecycle.starting(id, node);
        } catch (RuntimeException e) {
            // Without the mark another node could start it too; recovery adopts the row instead.
            LOG.log(Level.SEVERE, e, () -> "Could not mark execution " + id + " started; not running it here");
            return;
        }
        if (!mine) {
            LOG.info(() -> "Execution " + id + " belongs to another node or already started; not running it here");
            return;
        }
        try {
            runner.run();
        } finally {
            try {
                lifecycle.finished(id, execution.getBatchStatus());
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, e, () -> "Could not release the in-flight row of execution " + id
                        + "; it is released when this node's heartbeat goes stale");
            }
        }
    }
}
