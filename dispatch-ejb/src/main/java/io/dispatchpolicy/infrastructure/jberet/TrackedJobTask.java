package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.node.DatabaseOutage;
import org.jberet.runtime.JobExecutionImpl;
import org.jberet.spi.JobTask;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Wraps JBeret's job runner to mark the exact start and end of an admitted execution. The start mark
 * is also the exactly-once latch: it succeeds only for the node that owns the in-flight row, so a
 * runner whose row recovery gave to another node never runs.
 *
 * <p>When a mark cannot be written (the database is down) the runner gives up on it and lets go of
 * the execution: its in-flight row is then an orphan of this node, which the node's reconcile repairs
 * once the database is back — starting it if it never started, releasing it (and restarting it, if
 * JBeret could not record its end) if it ran. The runner never retries on its own, so there is one
 * repair path and nothing to double-count.
 */
final class TrackedJobTask implements JobTask {

    private static final Logger LOG = Logger.getLogger(TrackedJobTask.class.getName());

    private final JobTask runner;
    private final JobExecutionImpl execution;
    private final UUID node;
    private final RunnerLifecycle lifecycle;
    private final LocalRunners runners;
    private final DatabaseOutage outage;

    TrackedJobTask(JobTask runner, JobExecutionImpl execution, UUID node, RunnerLifecycle lifecycle,
                   LocalRunners runners, DatabaseOutage outage) {
        this.runner = runner;
        this.execution = execution;
        this.node = node;
        this.lifecycle = lifecycle;
        this.runners = runners;
        this.outage = outage;
    }

    long executionId() {
        return execution.getExecutionId();
    }

    /** Who submitted the job, as JBeret records it: the job runs as this user (null: as nobody in particular). */
    String user() {
        return execution.getUser();
    }

    @Override
    public int getRequiredRemainingPermits() {
        return runner.getRequiredRemainingPermits();
    }

    @Override
    public void run() {
        long id = executionId();
        long began = System.nanoTime();
        boolean ran = false;
        try {
            if (runners.closing()) {
                LOG.fine(() -> "Execution " + id + " not started: this node is stopping; recovery starts it elsewhere or later");
                return;
            }
            if (runners.startsHeld()) {
                LOG.fine(() -> "Execution " + id + " not started: the server is suspending; it starts when it resumes");
                return;
            }
            if (outage.isDown()) {
                // no attempt that can only fail (and fill the pool's log): reconcile starts it later
                LOG.fine(() -> "Execution " + id + " not started: the database is unreachable");
                return;
            }
            boolean mine;
            try {
                mine = lifecycle.starting(id, node);
            } catch (RuntimeException e) {
                report(e, "mark execution " + id + " started; not running it here, reconcile starts it later");
                return;
            }
            if (!mine) {
                LOG.info(() -> "Execution " + id + " belongs to another node or already started; not running it here");
                return;
            }
            runners.running(id);
            ran = true;
            try {
                runner.run();
            } finally {
                try {
                    if (!outage.isDown()) {
                        lifecycle.finished(execution);
                    }
                } catch (RuntimeException e) {
                    report(e, "record the end of execution " + id + "; reconcile releases its slot later");
                }
            }
        } finally {
            if (ran) {
                long now = System.nanoTime();
                runners.ended(now, now - began); // after its end mark: when its thread is free again
            }
            runners.release(id);
        }
    }

    private void report(RuntimeException e, String what) {
        if (outage.absorbs(e)) {
            LOG.fine(() -> "Database unreachable: could not " + what);
        } else if (runners.closing()) {
            LOG.info(() -> "While stopping, could not " + what + ": " + e);
        } else {
            LOG.log(Level.WARNING, e, () -> "Could not " + what);
        }
    }
}
