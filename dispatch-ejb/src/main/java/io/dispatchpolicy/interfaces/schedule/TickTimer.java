package io.dispatchpolicy.interfaces.schedule;

import io.dispatchpolicy.application.TickRunner;
import io.dispatchpolicy.config.DispatchSettings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the tick running on every node, one tick after another: each tick lasts
 * {@code dispatch.tick-max-duration} and, when it ends, schedules the next one (a non-persistent
 * single-action timer), so ticks never overlap and never wait for a clock boundary. A
 * {@code @Schedule} watchdog restarts the chain within a minute should it ever break. The timers are
 * not persistent: each node ticks on its own, and {@code SKIP LOCKED} keeps nodes from admitting the
 * same partition. With {@code dispatch.tick-enabled=false} the chain idles, checking once a second.
 * A tick that fails is retried after that same second, so a broken database is not hammered.
 */
@Singleton
@Startup
@DependsOn("NodeLifecycle")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class TickTimer {

    private static final Logger LOG = Logger.getLogger(TickTimer.class.getName());
    private static final String TICK = "dispatch tick";
    private static final long DISABLED_POLL_MS = 1_000;
    private static final long NEXT_TICK_MS = 1;
    /** The watchdog restarts a chain that has not fired for this long (longer than any poll or tick). */
    private static final long STALLED_AFTER_MS = 60_000;

    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong ticksStarted = new AtomicLong();
    private volatile long lastFiredMillis = System.currentTimeMillis();
    private volatile boolean stopping;

    // An EJB reference (not a CDI proxy) makes the runner outlive this bean at undeploy, so the
    // running tick can finish instead of calling a stopped component.
    @EJB
    TickRunner runner;

    @Inject
    DispatchSettings settings;

    @Resource
    TimerService timers;

    @PostConstruct
    void start() {
        schedule(DISABLED_POLL_MS);
    }

    /** True while a tick is running on this node. */
    public boolean isTicking() {
        return running.get();
    }

    /** How many ticks this node has started since the deployment started. */
    public long ticksStarted() {
        return ticksStarted.get();
    }

    /** Lets a running tick finish its iteration (it checks {@code stopping} each iteration and idle pause). */
    @PreDestroy
    void stop() {
        stopping = true;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (running.get() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Timeout
    void onTimeout(Timer timer) {
        if (stopping || !running.compareAndSet(false, true)) {
            return;
        }
        long next = DISABLED_POLL_MS;
        try {
            if (settings.tickEnabled()) {
                ticksStarted.incrementAndGet();
                runner.tick(() -> !stopping && settings.tickEnabled());
                next = NEXT_TICK_MS;
            }
        } catch (RuntimeException e) {
            // at undeploy the runner may stop before this bean does: not worth a warning then
            if (!stopping) {
                LOG.log(Level.WARNING, "Tick failed; the next one starts in a second", e);
            }
        } finally {
            // only here: while a tick runs, the watchdog already leaves the chain alone
            lastFiredMillis = System.currentTimeMillis();
            running.set(false);
            if (!stopping) {
                schedule(next);
            }
        }
    }

    /**
     * Restarts the chain if it has not fired for a minute (it can only break on an unexpected
     * error). Judged by time rather than by listing timers, which races with a tick that is just
     * scheduling its successor.
     */
    @Schedule(hour = "*", minute = "*", persistent = false, info = "dispatch tick watchdog")
    void watchdog() {
        long idleFor = System.currentTimeMillis() - lastFiredMillis;
        if (!stopping && !running.get() && idleFor > STALLED_AFTER_MS) {
            LOG.warning("The tick chain had stopped; restarting it");
            lastFiredMillis = System.currentTimeMillis();
            schedule(NEXT_TICK_MS);
        }
    }

    private void schedule(long delayMs) {
        timers.createSingleActionTimer(delayMs, new TimerConfig(TICK, false));
    }
}
