package io.dispatchpolicy.lifecycle;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.shard.ShardScope;
import io.dispatchpolicy.infrastructure.jberet.JobRepositoryCheck;
import io.dispatchpolicy.infrastructure.jberet.JobRepositoryIndexes;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.jberet.LocalRunners;
import io.dispatchpolicy.infrastructure.wildfly.ServerSuspend;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.NodeLiveness;
import io.dispatchpolicy.node.NodeRepository;
import io.dispatchpolicy.node.ServerSuspension;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.HistoryRecorder;
import io.dispatchpolicy.observe.MetricsSampler;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.policy.SettingNames;
import io.dispatchpolicy.schedule.ScheduleRegistry;
import io.dispatchpolicy.running.ExecutionWatchdog;
import io.dispatchpolicy.schedule.ScheduleWatchdog;
import io.dispatchpolicy.upkeep.Maintainer;
import io.dispatchpolicy.upkeep.MaintenanceTask;
import io.dispatchpolicy.notify.WebhookDelivery;
import io.dispatchpolicy.notify.Webhooks;
import io.dispatchpolicy.upkeep.RecoveryService;
import io.dispatchpolicy.upkeep.StrandedExecutions;
import io.dispatchpolicy.upkeep.Sweeper;
import io.dispatchpolicy.console.EngineBeacon;
import io.dispatchpolicy.console.monitoring.Monitoring;
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

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Boots the engine on this node: validates settings and policies (a mistake fails the deployment),
 * registers this boot (warning when another live server uses the same node name: each boot has its
 * own identity, so they stay safe), then heartbeats — holding this boot's liveness lock
 * ({@link NodeLiveness}) — runs recovery and sweeps on a maintenance thread of its own: one list of
 * {@link MaintenanceTask}s, each with its interval, run by one {@link Maintainer}.
 * The first recovery runs a second after boot: that is when a restarted node takes back what its
 * earlier life left — executions admitted but never handed to JBeret are started, jobs that were
 * running are failed and restarted.
 *
 * <p>Every recovery pass also reconciles this node's own in-flight rows with the runners its JVM
 * holds, and so does the moment the database is reachable again after an outage. While the database
 * is unreachable the maintenance thread skips its work: {@link TickLoop} probes the database and calls
 * {@link #databaseReturned()}.
 *
 * <p>Stopping (undeploy or a clean shutdown): the maintenance thread ends, runners still queued leave
 * their jobs to recovery, running jobs are asked to stop (they end STOPPED, keep their rows, and are
 * restarted by whoever recovers this node), and once they have ended the node is marked stopped so
 * its rows are recovered at once rather than after {@code inflight-stale-after}. {@code @DependsOn}
 * keeps the beans those steps call — recovery, the sweeper, and the in-flight tracker the runners'
 * end marks reach — alive until this one has stopped; a thread of our own rather than container
 * timers means nothing fires into a bean that is shutting down.
 */
@Singleton
@Startup
@DependsOn({"SchemaMigrator", "DefaultRecoveryService", "Sweeper", "DefaultInflightTracker", "ScheduleWatchdog", "ExecutionWatchdog",
        "BulkActionRunner"})
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class NodeLifecycle {

    private static final Logger LOG = Logger.getLogger(NodeLifecycle.class.getName());
    /** How long a stopping node waits for its running jobs to end after asking them to stop. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(20);
    private static final long FIRST_RECOVERY_MS = 1_000;
    /** How often waiting jobs of aging policies are raised: the resolution of agePriority's period. */
    private static final long AGING_INTERVAL_MS = 1_000;

    @Inject
    DispatchSettings settings;

    @Inject
    PolicyRegistry policies;

    @Inject
    SettingNames settingNames;

    @Inject
    ThisNode node;

    @Inject
    NodeRepository nodes;

    @EJB
    RecoveryService recovery;

    @EJB
    Sweeper sweeper;

    @Inject
    HistoryRecorder history;

    @Inject
    io.dispatchpolicy.console.bulk.BulkActionMaintenance bulkActions;

    @EJB
    ScheduleWatchdog scheduleWatchdog;

    @Inject
    ScheduleRegistry schedules;

    @Inject
    io.dispatchpolicy.schedule.CalendarRegistry calendars;

    @Inject
    LocalRunners runners;

    @Inject
    ExecutionWatchdog executionWatchdog;

    @Inject
    StrandedExecutions strandedExecutions;

    @Inject
    JobRuntime jobs;

    @Inject
    DatabaseOutage outage;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    NodeLiveness liveness;

    @Inject
    MetricsSampler sampler;

    @Inject
    JobRepositoryCheck repositoryCheck;

    @Inject
    JobRepositoryIndexes repositoryIndexes;

    @Inject
    ServerSuspension suspension;

    @Inject
    TickSignal signal;

    @Inject
    Webhooks webhooks;

    @Inject
    WebhookDelivery webhookDelivery;

    private volatile boolean stopping;
    private ExecutorService suspendWorker;
    private AutoCloseable followingSuspend;
    private volatile Maintainer maintainer;
    private Thread maintenance;
    private int lockKey;

    @PostConstruct
    void start() {
        settings.validate();
        repositoryCheck.verify();
        repositoryIndexes.ensure();
        policies.validateSettings();
        calendars.validateSettings();
        schedules.validateSettings();
        webhooks.validate();
        settingNames.check(); // wrong names are reported, never fatal (ADR 0023)
        LOG.info(() -> "Dispatch policies: " + policies.all());
        lockKey = nodes.register(node.id(), node.name());
        outage.probe(); // learns the server's address now, so probes during an outage knock first
        List<String> namesakes = nodes.liveNamesakes(node.id(), node.name(), settings.inflightStaleAfter(),
                settings.livenessGrace());
        if (!namesakes.isEmpty()) {
            LOG.warning(() -> "Another live server uses the node name '" + node.name() + "': " + namesakes + ". Each boot "
                    + "has an identity of its own, so they never take each other's work; set " + DispatchSettings.NODE_NAME
                    + " (or jboss.node.name) per server to tell them apart in the console and the logs");
        }
        maintainer = new Maintainer(tasks(), System::currentTimeMillis, outage::isDown, this::failed);
        maintenance = threads.newThread(this::maintain);
        maintenance.setName("dispatch-maintenance");
        maintenance.start();
        // after the maintenance thread: a resume (at the end of the server's boot) asks it to repair at once
        suspendWorker = Executors.newSingleThreadExecutor(threads);
        suspension.held(); // created here, in the deployment's context: the server calls in on threads of its own
        followingSuspend = ServerSuspend.follow(new NodeSuspension(suspension, runners, jobs, settings::suspendJobWait,
                suspendWorker, this::resumed));
        LOG.info(() -> "Dispatch node " + node.name() + " started as " + node.id());
        EngineBeacon.raise(Monitoring.class.getClassLoader()); // the console may call in now (ADR 0026)
    }

    /**
     * The node's maintenance, one list of tasks run by one loop ({@link Maintainer}), in this order when
     * several are due together: heartbeat (at once: that takes this boot's liveness lock), recovery,
     * the execution watchdog, stranded executions, priority aging, the schedule watchdog (a second after boot:
     * declared schedules get their first occurrence then), bulk actions, webhooks, history, the metrics' sample,
     * sweep, and the check of setting names written live.
     */
    private List<MaintenanceTask> tasks() {
        return List.of(
                new MaintenanceTask("heartbeat", settings.heartbeatInterval().toMillis(), 0, true,
                        () -> liveness.heartbeat(node.id(), lockKey, shardsSaid())),
                new MaintenanceTask("recovery", settings.recoveryInterval().toMillis(), FIRST_RECOVERY_MS, true, this::recover),
                MaintenanceTask.every("execution watchdog", ExecutionWatchdog.EVERY_MS, executionWatchdog::pass),
                new MaintenanceTask("stranded executions", settings.recoveryInterval().toMillis(), FIRST_RECOVERY_MS, true,
                        MaintenanceTask.untilDone(() -> strandedExecutions.pass() >= StrandedExecutions.BATCH)),
                MaintenanceTask.every("priority aging", AGING_INTERVAL_MS,
                        MaintenanceTask.untilDone(() -> sweeper.agePriorities() >= Sweeper.AGE_BATCH)),
                new MaintenanceTask("schedule watchdog", settings.scheduleWatchdogInterval().toMillis(), FIRST_RECOVERY_MS, false,
                        scheduleWatchdog::pass),
                MaintenanceTask.every("bulk actions", io.dispatchpolicy.console.bulk.BulkActionMaintenance.EVERY_MS, bulkActions::pass),
                MaintenanceTask.every("webhooks", WebhookDelivery.EVERY_MS, webhookDelivery::pass),
                MaintenanceTask.every("history", HistoryRecorder.FLUSH_EVERY_MS, history::flush),
                MaintenanceTask.every("metrics sample", MetricsSampler.EVERY_MS, sampler::sampleNow),
                MaintenanceTask.every("sweep", settings.sweepInterval().toMillis(), MaintenanceTask.untilDone(() -> sweeper.sweep() > 0)),
                MaintenanceTask.every("setting names", SettingNames.CHECK_EVERY_MS, settingNames::check));
    }

    private void maintain() {
        Maintainer maintainer = this.maintainer;
        while (!stopping) {
            maintainer.runDue();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(maintainer.waitMs()));
        }
    }

    /** The server resumed: what the suspend stopped or left unstarted is repaired now, and the tick woken. */
    /** The server resumed: repair what the suspend left (stopped jobs, queued ones) and admit at once. */
    private void resumed() {
        repairNow();
        signal.workArrived();
    }

    /** The database answers again: heartbeat and repair what the outage left now, not at the next interval. */
    public void databaseReturned() {
        repairNow();
    }

    /** Runs the repairing maintenance tasks (heartbeat, recovery) now rather than at their next interval. */
    private void repairNow() {
        Maintainer m = maintainer;
        if (m != null) { // null only before this node has started
            m.repairNow();
            LockSupport.unpark(maintenance);
        }
    }

    private void failed(MaintenanceTask task, RuntimeException e) {
        if (!stopping && !outage.absorbs(e)) {
            LOG.log(Level.WARNING, e, () -> task.name() + " failed; it runs again on its next interval");
        }
    }

    /** The shards this node admits, as its heartbeat tells the console: null for every shard. */
    private java.util.List<String> shardsSaid() {
        ShardScope scope = node.shards();
        return scope.everyShard() ? null : scope.named();
    }

    /**
     * Recovery starts admitted executions (its own orphans, gone nodes' unstarted rows): not while the
     * server is suspended — it runs at once on resume instead.
     */
    private void recover() {
        suspension.whileAdmitting(() -> {
            repair();
            return true;
        });
    }

    private void repair() {
        while (recovery.reconcile() > 0) {
            // keep going while own orphans are repaired
        }
        while (recovery.recoverUnstarted() > 0) {
            // keep going while rows are adopted
        }
        while (recovery.releaseDeadNodesJobs() > 0) {
            // keep going while rows are released
        }
    }

    @PreDestroy
    void stop() {
        EngineBeacon.lower(Monitoring.class.getClassLoader()); // first: the console stops calling in
        try {
            followingSuspend.close();
        } catch (Exception e) {
            LOG.fine(() -> "Could not stop following the server's suspend: " + e);
        }
        suspendWorker.shutdownNow();
        // Maintenance first: a recovery pass would restart the runners that are now letting go.
        stopping = true;
        LockSupport.unpark(maintenance);
        try {
            maintenance.join(STOP_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        runners.close();
        Set<Long> running = runners.runningNow();
        for (long executionId : running) {
            try {
                jobs.stop(executionId);
            } catch (RuntimeException alreadyEnding) {
                // ended meanwhile, or the server's own shutdown stopped it first
            }
        }
        boolean drained = runners.awaitDrained(STOP_WAIT);
        try {
            history.flush(); // the last seconds' counts, ends included
        } catch (RuntimeException e) {
            LOG.info(() -> "The last seconds of history were not written: " + e.getMessage());
        }
        if (!drained) {
            liveness.close();
            LOG.info(() -> "Stopping with " + runners.runningNow().size() + " job(s) still running past " + STOP_WAIT
                    .toSeconds() + " s; they are recovered as this boot's liveness lock is gone");
            return;
        }
        try {
            nodes.stopped(node.id());
            liveness.close();
            LOG.info(() -> "Dispatch node " + node.name() + " stopped (" + running.size() + " running job(s) stopped, "
                    + "to be restarted by whoever recovers this node)");
        } catch (RuntimeException e) {
            LOG.info(() -> "Could not mark this node stopped (" + e.getMessage() + "); others recover its work once its "
                    + "heartbeat is stale");
        }
    }
}
