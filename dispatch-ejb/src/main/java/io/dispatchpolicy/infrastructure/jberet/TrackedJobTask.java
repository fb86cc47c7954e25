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
final class TrackedJobTask implements JobTask, LocalRunners.RunningJob {

    private static final Logger LOG = Logger.getLogger(TrackedJobTask.class.getName());

    private final JobTask runner;
    private final JobExecutionImpl execution;
    private final UUID node;
    private final RunnerLifecycle lifecycle;
    private final LocalRunners runners;
    private final DatabaseOutage outage;
    /** The thread running the job, while it runs it: what a timed-out job's interrupt reaches (guarded by this). */
    private Thread jobThread;

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
            runners.running(id, this);
            ran = true;
            try {
                synchronized (this) {
                    jobThread = Thread.currentThread();
                }
                runner.run();
            } finally {
                synchronized (this) {
                    jobThread = null;
                }
                // an interrupt that reached the job as it ended must not reach the pool's next task
                Thread.interrupted();
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

    /** Interrupts the job's thread if it still runs the job; @return whether it did. */
    @Override
    public synchronized boolean interruptJob() {
        if (jobThread == null) {
            return false;
        }
        jobThread.interrupt();
        return true;
    }

    /**
     * How long the longest-running chunk step running now has run, by this JVM's clock; -1 when none runs
     * (ADR 0030: the progress timeout watches chunk steps only). JBeret marks a step STARTED in memory just
     * before it writes the step's row: the watchdog asks this so a step whose row it has not seen yet is
     * never judged by the previous step's progress.
     */
    @Override
    public long chunkStepRunningMs() {
        org.jberet.job.model.Job job = execution.getSubstitutedJob();
        if (job == null) {
            return -1;
        }
        long longest = -1;
        long now = System.currentTimeMillis();
        for (jakarta.batch.runtime.StepExecution step : execution.getStepExecutions()) {
            jakarta.batch.runtime.BatchStatus status = step.getBatchStatus();
            if ((status == jakarta.batch.runtime.BatchStatus.STARTING || status == jakarta.batch.runtime.BatchStatus.STARTED)
                    && step.getStartTime() != null && isChunk(job.getJobElements(), step.getStepName())) {
                longest = Math.max(longest, now - step.getStartTime().getTime());
            }
        }
        return longest;
    }

    /** Whether the step of that id among these elements (its flows and splits too) has a chunk. */
    private static boolean isChunk(java.util.List<org.jberet.job.model.JobElement> elements, String stepId) {
        for (org.jberet.job.model.JobElement element : elements) {
            if (element instanceof org.jberet.job.model.Step step && step.getId().equals(stepId)) {
                return step.getChunk() != null;
            }
            if (element instanceof org.jberet.job.model.Flow flow && isChunk(flow.getJobElements(), stepId)) {
                return true;
            }
            if (element instanceof org.jberet.job.model.Split split) {
                for (org.jberet.job.model.Flow flow : split.getFlows()) {
                    if (isChunk(flow.getJobElements(), stepId)) {
                        return true;
                    }
                }
            }
        }
        return false;
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
