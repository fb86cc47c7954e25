package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.node.TickSignal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The executions this JVM holds a runner for: queued in JBeret's thread pool or running. It is what a
 * node's reconcile trusts to tell its own live work from rows whose runner is gone (a database outage
 * killed it before it could mark its start or end).
 *
 * <p>An execution is held from the moment its runner is created inside the admission (or recovery)
 * transaction — before that transaction can commit, so no committed in-flight row is ever unheld while
 * its runner lives — until the runner has made its last attempt to write its end, or the transaction
 * rolled back. Holds are counted, not flagged: recovery may create a second runner for an execution
 * whose first one is still leaving, and the execution stays held until both are gone.
 */
@ApplicationScoped
public class LocalRunners {

    private final ConcurrentHashMap<Long, Integer> held = new ConcurrentHashMap<>();
    /**
     * The batch threads each held execution takes at its widest (its cost, ADR 0035), and their sum: what
     * {@link BatchThreads} counts as taken. A second runner of one execution takes no more.
     */
    private final ConcurrentHashMap<Long, Integer> threads = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger heldThreads = new java.util.concurrent.atomic.AtomicInteger();
    /** The runners past their start mark, by execution: the watchdog stops and interrupts through them (ADR 0030). */
    private final ConcurrentHashMap<Long, RunningJob> running = new ConcurrentHashMap<>();

    /** What the watchdog may do to a job running here. */
    interface RunningJob {
        /** Interrupts the job's thread if it still runs the job; @return whether it did. */
        boolean interruptJob();

        /** How long the longest-running chunk step running now has run (ms); -1 when none runs. */
        long chunkStepRunningMs();
    }
    private final Object drained = new Object();
    private volatile boolean closing;
    private volatile boolean startsHeld;
    /** Set when the tick found no free thread ({@link BatchThreads}): the next release wakes it. */
    private final java.util.concurrent.atomic.AtomicBoolean wakeOnRelease = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Jobs that ended here lately, as a count decaying with a half-life of {@link #END_RATE_HALF_LIFE_NANOS}:
     * how many jobs end per second now, which tells {@link BatchThreads} how many admitted jobs a short
     * wait in the pool covers, with {@link #occupancyNanos}. When the node's threads turn to long jobs,
     * the rate falls within a fraction of a second, where the average of durations learns it only once the
     * long jobs end.
     */
    private double endings;
    private long endingsAtNanos;
    static final double END_RATE_HALF_LIFE_NANOS = 250e6;
    /**
     * How long a job held a thread here (start mark, job, end mark), averaged over about the last ten
     * that ran; NaN until one has. Jobs started together end together, and right after such a burst the
     * rate says "many a second" even of jobs of seconds: the durations say how short the jobs really are.
     */
    private double occupancyNanos = Double.NaN;
    private static final double OCCUPANCY_WEIGHT = 0.1;

    @Inject
    TickSignal signal;

    void hold(long executionId, int cost) {
        int n = Math.max(1, cost);
        held.compute(executionId, (id, runners) -> {
            if (runners == null) {
                threads.put(id, n);
                heldThreads.addAndGet(n);
                return 1;
            }
            return runners + 1;
        });
    }

    /** The runner passed its start mark and is running the job. */
    void running(long executionId, RunningJob runner) {
        running.put(executionId, runner);
    }

    void release(long executionId) {
        running.remove(executionId);
        held.computeIfPresent(executionId, (id, n) -> {
            if (n > 1) {
                return n - 1;
            }
            Integer taken = threads.remove(id);
            heldThreads.addAndGet(-(taken == null ? 1 : taken));
            return null;
        });
        if (wakeOnRelease.get() && wakeOnRelease.compareAndSet(true, false)) {
            signal.workArrived(); // a thread is free: the tick that found none admits now
        }
        if (held.isEmpty()) {
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }

    /** A job that ran here ended (its runner made its last write), having held its thread {@code heldNanos}. */
    synchronized void ended(long nowNanos, long heldNanos) {
        endings = endingsAt(nowNanos) + 1;
        endingsAtNanos = nowNanos;
        occupancyNanos = Double.isNaN(occupancyNanos) ? heldNanos : occupancyNanos + OCCUPANCY_WEIGHT * (heldNanos - occupancyNanos);
    }

    /** How long a job holds a thread here, on average over the last jobs; NaN while none has run. */
    public synchronized double occupancyNanos() {
        return occupancyNanos;
    }

    /** Jobs ending per second here lately (0 while none has). */
    public synchronized double endRate(long nowNanos) {
        // a count decaying with half-life h settles at rate x h / ln 2 under a steady rate
        return endingsAt(nowNanos) * Math.log(2) / (END_RATE_HALF_LIFE_NANOS / 1e9);
    }

    private double endingsAt(long nowNanos) {
        return endings == 0 ? 0 : endings * Math.pow(0.5, Math.max(0, nowNanos - endingsAtNanos) / END_RATE_HALF_LIFE_NANOS);
    }

    /** The batch threads the executions with a runner in this JVM take at their widest: the sum of their costs. */
    public int heldThreads() {
        return heldThreads.get();
    }

    /** The next runner to end wakes the tick (it found every thread taken). */
    void wakeOnRelease() {
        wakeOnRelease.set(true);
    }

    /** True while a runner of this execution lives in this JVM. */
    public boolean holds(long executionId) {
        return held.containsKey(executionId);
    }

    /** The executions with a runner in this JVM now, queued ones included. */
    public Set<Long> heldNow() {
        return Set.copyOf(held.keySet());
    }

    /** The executions whose job is running in this JVM now (queued ones excluded). */
    public Set<Long> runningNow() {
        return Set.copyOf(running.keySet());
    }

    /**
     * Interrupts the thread running the execution's job here, if it still runs it (a timed-out job that
     * did not stop when JBeret asked it to, ADR 0030). @return whether a thread was interrupted
     */
    public boolean interrupt(long executionId) {
        RunningJob runner = running.get(executionId);
        return runner != null && runner.interruptJob();
    }

    /**
     * How long the longest-running chunk step of the execution running here has run, in ms; -1 when none
     * runs (the progress timeout watches only chunk steps: a batchlet writes no checkpoint while it runs)
     * or the execution does not run here.
     */
    public long chunkStepRunningMs(long executionId) {
        RunningJob runner = running.get(executionId);
        return runner == null ? -1 : runner.chunkStepRunningMs();
    }

    /**
     * From now on, runners that have not started yet leave their execution to recovery instead of
     * starting: this node is going away.
     */
    public void close() {
        closing = true;
    }

    public boolean closing() {
        return closing;
    }

    /**
     * While held, runners that have not started yet do not start: they let go of their execution, whose
     * in-flight row stays unstarted, and this node's reconcile starts it once starts are allowed again
     * (the server suspending: a queued job must not begin while it is suspended).
     */
    public void holdStarts(boolean hold) {
        startsHeld = hold;
    }

    public boolean startsHeld() {
        return startsHeld;
    }

    /** Waits until no runner is held, or the timeout passes; @return true when none is left. */
    public boolean awaitDrained(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (drained) {
            while (!held.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    drained.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return held.isEmpty();
                }
            }
        }
        return true;
    }
}
