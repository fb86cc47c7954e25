package io.dispatchpolicy.lifecycle;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.ServerSuspension;
import io.dispatchpolicy.tick.TickRunner;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the tick running on every node: {@code dispatch.tick-workers} loops, each on a thread of its
 * own (from the server's managed thread factory), one tick after another; they never wait for a clock
 * boundary. Workers and nodes tick on their own, and {@code SKIP LOCKED} keeps any two of them from
 * claiming the same partition, so they share nothing in memory that could admit a job twice (each
 * admission is counted under its partition's lock, and a capacity under its policy's). With
 * {@code dispatch.tick-enabled=false} the loops idle, checking once a second.
 *
 * <p>A tick that fails is retried after a second, so a broken database is not hammered; while the
 * database is unreachable the loop only probes it every two seconds, and on its return has the node
 * repair what the outage left ({@link NodeLifecycle#databaseReturned()}) before ticking again.
 *
 * <p>A thread rather than container timers: the loop is stopped and joined in {@code @PreDestroy},
 * so a clean stop never has a timer fire into a bean that is shutting down (the container logs that
 * as an error); {@code @DependsOn} keeps every bean a tick calls alive until then.
 */
@Singleton
@Startup
@DependsOn({"NodeLifecycle", "TickRunner", "TickTransactions", "DefaultAdmissionService"})
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class TickLoop {

    private static final Logger LOG = Logger.getLogger(TickLoop.class.getName());
    private static final long DISABLED_POLL_MS = 1_000;
    /** While the database is unreachable, how often it is probed (a TCP knock first: no pool noise). */
    private static final long OUTAGE_PROBE_MS = 2_000;
    /** A failure that is not an outage is reported in full once, then in one line at most this often. */
    private static final long REPEAT_REPORT_MS = 60_000;
    private static final long STOP_WAIT_MS = 30_000;

    private final AtomicInteger ticking = new AtomicInteger();
    private final AtomicLong ticksStarted = new AtomicLong();
    private volatile boolean stopping;
    private final List<Thread> workers = new ArrayList<>();
    private volatile String lastFailure;
    private long lastFailureReportedMillis;

    @EJB
    TickRunner runner;

    @EJB
    NodeLifecycle lifecycle;

    @Inject
    DispatchSettings settings;

    @Inject
    DatabaseOutage outage;

    @Inject
    ServerSuspension suspension;

    @Resource
    ManagedThreadFactory threads;

    @PostConstruct
    void start() {
        int n = settings.tickWorkers();
        for (int i = 0; i < n; i++) {
            Thread worker = threads.newThread(this::loop);
            worker.setName(n == 1 ? "dispatch-tick" : "dispatch-tick-" + (i + 1));
            workers.add(worker);
            worker.start();
        }
    }

    /** How many tick workers this node runs. */
    public int workers() {
        return workers.size();
    }

    /** True while a tick is running on this node (in any worker). */
    public boolean isTicking() {
        return ticking.get() > 0;
    }

    /** How many ticks this node has started since the deployment started. */
    public long ticksStarted() {
        return ticksStarted.get();
    }

    /** Lets a running tick finish its iteration (it checks {@code stopping} each iteration and idle pause). */
    @PreDestroy
    void stop() {
        stopping = true;
        long deadline = System.currentTimeMillis() + STOP_WAIT_MS;
        for (Thread worker : workers) {
            try {
                worker.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void loop() {
        while (!stopping) {
            long pause = once();
            if (pause > 0 && !stopping) {
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** One tick, or one probe while the database is away; @return how long to wait before the next. */
    private long once() {
        try {
            if (outage.isDown()) {
                if (!outage.probe()) {
                    return OUTAGE_PROBE_MS;
                }
                // one worker repairs what the outage left; the others find the database up and tick
                lifecycle.databaseReturned();
            }
            if (!settings.tickEnabled() || suspension.held()) {
                return DISABLED_POLL_MS;
            }
            ticking.incrementAndGet();
            try {
                ticksStarted.incrementAndGet();
                runner.tick(() -> !stopping && settings.tickEnabled());
            } finally {
                ticking.decrementAndGet();
            }
            lastFailure = null;
            return 0;
        } catch (RuntimeException e) {
            if (!stopping && !outage.absorbs(e)) {
                report(e);
            }
            return outage.isDown() ? OUTAGE_PROBE_MS : DISABLED_POLL_MS;
        }
    }

    /** The first failure of a kind with its stack trace; the same again at most once a minute, in one line. */
    private synchronized void report(RuntimeException e) {
        long now = System.currentTimeMillis();
        String kind = String.valueOf(e);
        if (!kind.equals(lastFailure)) {
            lastFailure = kind;
            lastFailureReportedMillis = now;
            LOG.log(Level.WARNING, e, () -> "Tick failed; the next one starts in a second");
        } else if (now - lastFailureReportedMillis >= REPEAT_REPORT_MS) {
            lastFailureReportedMillis = now;
            LOG.warning(() -> "Ticks keep failing: " + kind);
        }
    }
}
