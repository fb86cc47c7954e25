package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.config.LastValid;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jberet.spi.BatchEnvironment;
import org.jberet.spi.JobExecutor;

import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * This node's batch threads as admission sees them (issue 34, ADR 0027): a node admits only what its
 * threads can start, so an admitted job does not wait in one node's pool while another node has a free
 * thread, nor hold its partition's slot from a queue. The threads the engine may fill are
 * {@code dispatch.node-threads}: {@code auto} (the default) for the jobs the batch thread pool WildFly gave
 * the deployment can start at once (its size less the one thread JBeret keeps for running jobs' steps), a
 * number, or {@code unlimited} (nothing is counted). What fills them is known in memory and exact: every
 * runner this JVM holds, queued or running ({@link LocalRunners}), plus what tick iterations under way
 * have reserved.
 *
 * <p><b>A short queue for short jobs.</b> A thread that frees waits for a tick iteration to fill it
 * again; a job of a few milliseconds frees it many times per iteration, and a node limited to its
 * threads completed about 0.6 x the jobs per second it did with JBeret's queue (benchmarks, run 28). So
 * the node may also queue as many jobs as end within {@code dispatch.node-queue-wait} (100 ms by
 * default), judged by its recent rate of job ends and by how long its recent jobs held a thread
 * ({@link LocalRunners}), never more than
 * {@link #QUEUE_CAP} times its threads: jobs of seconds queue none, jobs of milliseconds keep every thread
 * fed. A queued job waits about that long; should every thread turn to long jobs at once, the rate falls
 * within a fraction of a second, and what was queued before waits behind them — at most the cap.
 *
 * <p>An iteration {@link #reserve reserves} the free room when it starts and {@link #unreserve gives
 * back} the reservation when it ends; its admissions create runners meanwhile, so a thread is counted
 * twice for the rest of that iteration — never too few. Two tick workers of one node share the room
 * that way without a lock.
 */
@ApplicationScoped
public class BatchThreads {

    private static final Logger LOG = Logger.getLogger(BatchThreads.class.getName());
    /** The pool WildFly's batch subsystem is given by dispatch.cli ({@code ${dispatch.batch.max-threads:10}}). */
    static final String POOL_PROPERTY = "dispatch.batch.max-threads";
    private static final int DEFAULT_POOL = 10;
    /**
     * JBeret starts a job only while two of the pool's permits are left (its {@code JobExecutionRunner}'s
     * required remaining permits), keeping a thread for the steps of running jobs: a pool of 10 starts 9.
     */
    static final int KEPT_BY_JBERET = 1;
    /** The queue beyond the threads is at most this many times the threads (ADR 0027). */
    static final int QUEUE_CAP = 4;

    @Inject
    LocalRunners runners;

    @Inject
    DispatchSettings settings;

    @Inject
    JobRuntime runtime;

    private final AtomicInteger reserved = new AtomicInteger();
    /**
     * Threads a costly job at the front of the claim waits for ({@link #awaitFree}): until that many are
     * free at once, no iteration gets any, so the jobs that end leave their threads to it instead of to
     * the cheap jobs behind it (which would otherwise take each thread as it frees, and starve it). Lapses
     * {@link #AWAIT_LAPSE_NANOS} after it was last asked for, should the job go elsewhere.
     */
    private final AtomicInteger awaited = new AtomicInteger();
    private volatile long awaitedUntilNanos;
    static final long AWAIT_LAPSE_NANOS = 5_000_000_000L;
    private volatile int pool;
    /** The last valid {@code dispatch.node-threads} and {@code dispatch.node-queue-wait}: a typo written live keeps them. */
    private final LastValid<OptionalInt> threadsSetting = new LastValid<>(OptionalInt.of(DispatchSettings.NODE_THREADS_AUTO));
    private final LastValid<Long> queueWaitSetting = new LastValid<>(100_000_000L);

    /** The threads the engine may fill on this node; {@link Integer#MAX_VALUE} when they are not limited. */
    public int size() {
        OptionalInt configured = configuredThreads();
        if (configured.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        return configured.getAsInt() == DispatchSettings.NODE_THREADS_AUTO ? pool() : configured.getAsInt();
    }

    /** Jobs this node may hold now, queued or running: its threads and the short queue they cover. */
    int room() {
        int size = size();
        if (size == Integer.MAX_VALUE) {
            return size;
        }
        return size + queueAllowance(size, queueWaitNanos(), runners.endRate(System.nanoTime()), runners.occupancyNanos());
    }

    /**
     * The jobs that may wait in the pool beyond {@code threads}: as many as end within {@code waitNanos}
     * both at this node's recent rate of job ends ({@code endsPerSecond}) and by how long its recent jobs
     * held a thread ({@code occupancyNanos}: threads x wait / occupancy) — none while nothing is known —
     * and never more than {@link #QUEUE_CAP} times the threads. Both, because each is wrong alone: jobs of
     * seconds started together end together, and for a moment after, their rate of ends is that of short
     * jobs; and when every thread turns from short jobs to long ones, the durations learn it only once the
     * long ones end, while the rate falls within a second. The cap bounds what waits behind long jobs then.
     */
    static int queueAllowance(int threads, long waitNanos, double endsPerSecond, double occupancyNanos) {
        if (waitNanos <= 0 || !(endsPerSecond > 0) || !(occupancyNanos > 0)) {
            return 0;
        }
        double byRate = endsPerSecond * waitNanos / 1e9;
        double byDuration = threads * (waitNanos / occupancyNanos);
        return (int) Math.min((long) threads * QUEUE_CAP, Math.floor(Math.min(byRate, byDuration)));
    }

    /** Room neither held by a runner nor reserved by an iteration; never negative. */
    public int free() {
        return Math.max(0, room() - runners.heldThreads() - reserved.get());
    }

    /**
     * The next job in line needs {@code threads} threads of this node at once, more than are free (ADR
     * 0035): hold back what frees until they are, rather than hand it to the jobs behind it.
     */
    public void awaitFree(int threads) {
        awaited.accumulateAndGet(threads, Math::max);
        awaitedUntilNanos = System.nanoTime() + AWAIT_LAPSE_NANOS;
    }

    /** Takes up to {@code wanted} of the free room for one iteration; @return how much (0 when none is free). */
    public int reserve(int wanted) {
        int room = room();
        if (room == Integer.MAX_VALUE) {
            return wanted; // not limited: nothing is counted
        }
        while (true) {
            int before = reserved.get();
            int free = Math.max(0, room - runners.heldThreads() - before);
            int waitingFor = awaited.get();
            if (waitingFor > 0) {
                if (free >= waitingFor || System.nanoTime() - awaitedUntilNanos > 0) {
                    awaited.compareAndSet(waitingFor, 0); // enough free at once (or it lapsed): this iteration may give them to it
                } else {
                    free = 0;
                }
            }
            int take = Math.min(wanted, free);
            if (take <= 0) {
                runners.wakeOnRelease(); // the tick sleeps until a thread frees, not for its whole idle pause
                if (room - runners.heldThreads() - reserved.get() <= 0 || awaited.get() > 0) {
                    return 0;
                }
                continue; // one freed before the wake was asked for: take it now
            }
            if (reserved.compareAndSet(before, before + take)) {
                return take;
            }
        }
    }

    /** Gives back what {@link #reserve} took, at the end of the iteration. */
    public void unreserve(int taken) {
        if (taken > 0 && taken != Integer.MAX_VALUE) {
            reserved.addAndGet(-taken);
        }
    }

    private OptionalInt configuredThreads() {
        return threadsSetting.read(settings::nodeThreads, this::reportKept);
    }

    private long queueWaitNanos() {
        return queueWaitSetting.read(() -> settings.nodeQueueWait().toNanos(), this::reportKept);
    }

    /** A bad value written live is reported (once until fixed); the node keeps counting as it did (a typo must not stop it). */
    private void reportKept(InvalidSettingException e) {
        OptionalInt threads = threadsSetting.last();
        LOG.warning(() -> e.getMessage() + "; this node keeps " + DispatchSettings.NODE_THREADS + " at "
                + (threads.isEmpty() ? "unlimited" : threads.getAsInt() == DispatchSettings.NODE_THREADS_AUTO
                ? "auto" : String.valueOf(threads.getAsInt()))
                + " and " + DispatchSettings.NODE_QUEUE_WAIT + " at " + queueWaitSetting.last() / 1_000_000 + " ms");
    }

    /**
     * The jobs the batch pool can start at once: its size as WildFly configured it (read once; the
     * property that sizes it, if that fails) less the thread JBeret keeps ({@link #KEPT_BY_JBERET}).
     */
    private int pool() {
        int known = pool;
        if (known > 0) {
            return known;
        }
        int size;
        try {
            size = maximumPoolSize(runtime.environment());
        } catch (ReflectiveOperationException | RuntimeException e) {
            size = settings.raw(POOL_PROPERTY).map(String::strip).map(Integer::parseInt).orElse(DEFAULT_POOL);
            int fallback = size;
            LOG.info(() -> "Could not read the batch thread pool's size from WildFly (" + e + "); using " + POOL_PROPERTY
                    + " = " + fallback + ". Set dispatch.node-threads to say how many jobs this node may run at once.");
        }
        pool = Math.max(1, size - KEPT_BY_JBERET);
        return pool;
    }

    /**
     * WildFly keeps the deployment's {@link JobExecutor} in its batch environment, and JBeret asks the
     * executor for its pool's size (for partitioned steps) through a protected method: both read here,
     * once per deployment. A WildFly without them falls back to the property.
     */
    private static int maximumPoolSize(BatchEnvironment environment) throws ReflectiveOperationException {
        for (Class<?> c = environment.getClass(); c != null; c = c.getSuperclass()) {
            for (java.lang.reflect.Field field : c.getDeclaredFields()) {
                if (JobExecutor.class.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    Object executor = field.get(environment);
                    java.lang.reflect.Method size = JobExecutor.class.getDeclaredMethod("getMaximumPoolSize");
                    size.setAccessible(true);
                    int value = (Integer) size.invoke(executor);
                    if (value < 1) {
                        throw new IllegalStateException("the pool reports " + value + " threads");
                    }
                    return value;
                }
            }
        }
        throw new NoSuchFieldException("no JobExecutor in " + environment.getClass().getName());
    }
}
