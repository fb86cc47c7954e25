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
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the tick running on every node, one tick after another: each tick lasts
 * {@code dispatch.tick-max-duration} and, when it ends, schedules the next one (a non-persistent
 * single-action timer), so ticks never overlap and never wait for a clock boundary. A
 * {@code @Schedule} watchdog restarts the chain within a minute should it ever break. The timers are
 * not persistent: each node ticks on its own, and {@code SKIP LOCKED} keeps nodes from admitting the
 * same partition. With {@code dispatch.tick-enabled=false} the chain idles, checking once a second.
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

    private final AtomicBoolean running = new AtomicBoolean();
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
        boolean ticked = false;
        try {
            if (settings.tickEnabled()) {
                ticked = true;
                runner.tick(() -> !stopping && settings.tickEnabled());
            }
        } catch (RuntimeException e) {
            LOG.log(stopping ? Level.FINE : Level.WARNING, "Tick failed; the next one retries", e);
        } finally {
            running.set(false);
            if (!stopping) {
                schedule(ticked ? NEXT_TICK_MS : DISABLED_POLL_MS);
            }
        }
    }

    /** Restarts the chain if no tick is running or scheduled (it can only break on an unexpected error). */
    @Schedule(hour = "*", minute = "*", persistent = false, info = "dispatch tick watchdog")
    void watchdog() {
        boolean scheduled = timers.getTimers().stream().anyMatch(t -> TICK.equals(t.getInfo()));
        if (!stopping && !running.get() && !scheduled) {
            LOG.warning("The tick chain had stopped; restarting it");
            schedule(NEXT_TICK_MS);
        }
    }

    private void schedule(long delayMs) {
        timers.createSingleActionTimer(delayMs, new TimerConfig(TICK, false));
    }
}
