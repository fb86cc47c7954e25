package io.dispatchpolicy.lifecycle;

import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.jberet.LocalRunners;
import io.dispatchpolicy.infrastructure.wildfly.SuspendListener;
import io.dispatchpolicy.node.ServerSuspension;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * This node through a suspend of its server (ADR 0021):
 * <ol>
 * <li><b>prepare</b> (the suspend begins): admissions are held, and the stage completes once the ones in
 * progress have committed — from then on no execution is created here;</li>
 * <li><b>suspend</b>: the jobs this node holds (running, or admitted and queued for a batch thread) get
 * {@code dispatch.suspend-job-wait} to finish — when the suspend begins a {@code :shutdown} or
 * {@code :reload}, only the running ones: queued ones do not start, since the deployments they need stop next. Then queued ones no longer start, and every one still held
 * is stopped: a running job ends STOPPED with no operator's stop request, so this node's reconcile restarts
 * it through its policy on resume; a queued one is marked STOPPED without running, and the reconcile runs that same
 * execution on resume (its in-flight row proves it never started). The stage completes once they have let
 * go — before WildFly's batch subsystem is suspended: it stops every STARTING or STARTED execution it
 * finds and, with {@code restart-jobs-on-resume}, restarts them behind the engine's back; it finds none of
 * the engine's;</li>
 * <li><b>resume</b>: admissions and starts resume, the node's repairs run at once (the stopped jobs are
 * staged again, the queued ones started) and its tick is woken.</li>
 * </ol>
 */
final class NodeSuspension implements SuspendListener {

    private static final Logger LOG = Logger.getLogger(NodeSuspension.class.getName());
    /** How long prepare waits for the admissions in progress (one tick iteration, one force-admit). */
    private static final Duration ADMISSIONS_WAIT = Duration.ofSeconds(30);
    /** How long stopped jobs get to end (as on a clean stop). */
    private static final Duration STOPPED_WAIT = Duration.ofSeconds(20);
    /** How long the job repository is kept up for this node's jobs when the server stops (the clean stop's wait, and some). */
    private static final Duration STOPPING_WAIT = Duration.ofSeconds(30);

    private final ServerSuspension suspension;
    private final LocalRunners runners;
    private final JobRuntime jobs;
    private final Supplier<Duration> jobWait;
    private final ExecutorService worker;
    private final Runnable resumed;
    private volatile CompletableFuture<Void> draining = CompletableFuture.completedFuture(null);

    NodeSuspension(ServerSuspension suspension, LocalRunners runners, JobRuntime jobs, Supplier<Duration> jobWait,
                   ExecutorService worker, Runnable resumed) {
        this.suspension = suspension;
        this.runners = runners;
        this.jobs = jobs;
        this.jobWait = jobWait;
        this.worker = worker;
        this.resumed = resumed;
    }

    @Override
    public CompletionStage<Void> prepare() {
        LOG.info("The server is suspending: this node admits nothing until it resumes");
        return async(() -> {
            if (!suspension.hold(ADMISSIONS_WAIT)) {
                LOG.warning(() -> "Admissions still in progress after " + ADMISSIONS_WAIT.toSeconds() + " s of suspending");
            }
        });
    }

    @Override
    public CompletionStage<Void> suspend(boolean stopping) {
        // at boot the server suspends without preparing (nothing is in progress then)
        suspension.hold(ADMISSIONS_WAIT);
        if (stopping) {
            // A :shutdown or :reload stops the deployments once this stage completes or its timeout (often
            // none) runs out: a queued job that began then would find its artifacts gone and end FAILED, a
            // failure nobody caused. Queued jobs therefore do not start at all; their in-flight rows stay
            // unstarted and this node's (or a peer's) recovery starts those same executions. Running jobs
            // still get the wait.
            runners.holdStarts(true);
        }
        if (runners.heldNow().isEmpty()) {
            runners.holdStarts(true);
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> stage = async(this::drain);
        draining = stage;
        return stage;
    }

    /** Lets the held jobs finish for {@code dispatch.suspend-job-wait}, then stops the rest and waits for them. */
    private void drain() {
        Duration wait = jobWait.get();
        LOG.info(() -> runners.heldNow().size() + " job(s) of this node get " + wait.toSeconds() + " s to finish before "
                + "they are stopped (dispatch.suspend-job-wait)");
        if (runners.awaitDrained(wait) || !suspension.held()) {
            runners.holdStarts(suspension.held());
            return;
        }
        runners.holdStarts(true);
        // No stop request is recorded: a STOPPED end nobody asked for is an interruption, restarted through
        // its policy by this node's reconcile (JobStops).
        Set<Long> left = runners.heldNow();
        for (long executionId : left) {
            try {
                jobs.stop(executionId);
            } catch (RuntimeException alreadyEnding) {
                // ended meanwhile: it keeps its own end
            }
        }
        LOG.info(() -> "Stopped " + left.size() + " job(s) still held after " + wait.toSeconds() + " s; they run again "
                + "through their policy when the server resumes: " + left);
        if (!runners.awaitDrained(STOPPED_WAIT)) {
            LOG.warning(() -> runners.heldNow().size() + " stopped job(s) still held after " + STOPPED_WAIT.toSeconds()
                    + " s: " + runners.heldNow());
        }
    }

    /**
     * Waits, on a thread of its own (the node's worker stops with the deployment), for the jobs this node
     * holds to end: the node's clean stop asks them to, and WildFly's batch subsystem does too. Once the
     * deployment has gone its beans answer no more, and its clean stop has already waited for them.
     */
    @Override
    public CompletionStage<Void> stopping() {
        try {
            // This hook has no dependents, so the container stops it first — before the deployments whose
            // artifacts a queued job would need (a :reload does not suspend at all). A queued job that began
            // after them would end FAILED for nothing; it lets go instead and recovery starts it (ADR 0021).
            runners.holdStarts(true);
            // Nor is anything admitted or recovered from now on, as while suspended: the batch subsystem's job
            // operator stops with the deployments, and an admission or a recovery pass using it then would fail
            // (an ERROR in a clean stop's log). One already in progress is waited for (one transaction).
            if (!suspension.hold(ADMISSIONS_WAIT)) {
                LOG.info(() -> "Admissions still in progress after " + ADMISSIONS_WAIT.toSeconds() + " s of stopping");
            }
        } catch (RuntimeException deploymentGone) {
            // the deployment went first: its clean stop has closed the runners already
        }
        return CompletableFuture.runAsync(() -> {
            try {
                if (!runners.awaitDrained(STOPPING_WAIT)) {
                    LOG.info(() -> "The server stops with " + runners.heldNow().size() + " job(s) of this node still held");
                }
            } catch (RuntimeException deploymentGone) {
                // its context is destroyed: the deployment's own stop waited for its jobs
            }
        }, step -> {
            Thread waiting = new Thread(step, "dispatch-stopping");
            waiting.setDaemon(true);
            waiting.start();
        });
    }

    /**
     * Called on the server's thread (at the end of a boot, the controller's own): the node's repairs and the
     * tick's wake-up reach beans, which need the deployment's context, so they run on this node's worker.
     */
    @Override
    public void resume() {
        draining.cancel(true);
        runners.holdStarts(false);
        suspension.release();
        LOG.info("The server resumed: this node admits again");
        async(resumed);
    }

    private CompletableFuture<Void> async(Runnable step) {
        try {
            return CompletableFuture.runAsync(step, worker);
        } catch (RejectedExecutionException stopping) {
            step.run(); // the node is stopping: do it on the caller's thread
            return CompletableFuture.completedFuture(null);
        }
    }
}
