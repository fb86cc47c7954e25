package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.config.DispatchSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jberet.spi.BatchEnvironment;
import org.jberet.spi.JobExecutor;

import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * This node's batch threads as admission sees them (issue 34, ADR 0027): a node admits only what its
 * threads can start, so an admitted job never waits in one node's pool while another node has a free
 * thread, and never holds its partition's slot from a queue. The threads the engine may fill are
 * {@code dispatch.node-threads}: a number, or {@code auto} for the jobs the batch thread pool WildFly gave
 * the deployment can start at once (its size less the one thread JBeret keeps for running jobs' steps);
 * unset, nothing is limited or counted (the default, until admission refills threads fast enough for
 * short jobs: ADR 0027). What fills them is known in memory and exact: every runner this JVM holds, queued or
 * running ({@link LocalRunners}), plus what tick iterations under way have reserved.
 *
 * <p>An iteration {@link #reserve reserves} the free threads when it starts and {@link #unreserve gives
 * back} the reservation when it ends; its admissions create runners meanwhile, so a thread is counted
 * twice for the rest of that iteration — never too few. Two tick workers of one node share the threads
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

    @Inject
    LocalRunners runners;

    @Inject
    DispatchSettings settings;

    @Inject
    JobRuntime runtime;

    private final AtomicInteger reserved = new AtomicInteger();
    private volatile int pool;

    /** The threads the engine may fill on this node; {@link Integer#MAX_VALUE} when they are not limited. */
    public int size() {
        OptionalInt configured = settings.nodeThreads();
        if (configured.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        return configured.getAsInt() == DispatchSettings.NODE_THREADS_AUTO ? pool() : configured.getAsInt();
    }

    /** Threads neither held by a runner nor reserved by an iteration; never negative. */
    public int free() {
        return Math.max(0, size() - runners.heldCount() - reserved.get());
    }

    /** Takes up to {@code wanted} free threads for one iteration; @return how many (0 when none is free). */
    public int reserve(int wanted) {
        if (size() == Integer.MAX_VALUE) {
            return wanted; // not limited (the default): nothing is counted
        }
        while (true) {
            int before = reserved.get();
            int take = Math.min(wanted, Math.max(0, size() - runners.heldCount() - before));
            if (take <= 0) {
                runners.wakeOnRelease(); // the tick sleeps until a thread frees, not for its whole idle pause
                if (size() - runners.heldCount() - reserved.get() <= 0) {
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
