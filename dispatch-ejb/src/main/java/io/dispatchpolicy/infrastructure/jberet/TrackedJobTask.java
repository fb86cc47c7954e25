package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.infrastructure.persistence.InflightRepository;
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
    private final long executionId;
    private final UUID node;
    private final InflightRepository inflight;

    TrackedJobTask(JobTask runner, long executionId, UUID node, InflightRepository inflight) {
        this.runner = runner;
        this.executionId = executionId;
        this.node = node;
        this.inflight = inflight;
    }

    long executionId() {
        return executionId;
    }

    @Override
    public int getRequiredRemainingPermits() {
        return runner.getRequiredRemainingPermits();
    }

    @Override
    public void run() {
        boolean mine;
        try {
            mine = inflight.started(executionId, node);
        } catch (RuntimeException e) {
            // Without the mark another node could start it too; recovery will adopt the row instead.
            LOG.log(Level.SEVERE, e, () -> "Could not mark execution " + executionId + " started; not running it here");
            return;
        }
        if (!mine) {
            LOG.info(() -> "Execution " + executionId + " belongs to another node or already started; not running it here");
            return;
        }
        try {
            runner.run();
        } finally {
            try {
                inflight.finished(executionId);
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, e, () -> "Could not release the in-flight row of execution " + executionId);
            }
        }
    }
}
