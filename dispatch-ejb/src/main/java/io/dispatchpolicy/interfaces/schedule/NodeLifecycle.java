package io.dispatchpolicy.interfaces.schedule;

import io.dispatchpolicy.application.PolicyRegistry;
import io.dispatchpolicy.application.RecoveryService;
import io.dispatchpolicy.application.Sweeper;
import io.dispatchpolicy.application.ThisNode;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.persistence.NodeRepository;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Boots the engine on this node: validates settings and policies (a mistake fails the deployment),
 * registers the node, then heartbeats, runs recovery and sweeps on timers. The first recovery runs a
 * second after boot: that is when a restarted node takes back what its earlier life left — executions
 * admitted but never handed to JBeret are started, jobs that were running are failed and restarted.
 */
@Singleton
@Startup
@DependsOn("SchemaMigrator")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class NodeLifecycle {

    private static final Logger LOG = Logger.getLogger(NodeLifecycle.class.getName());
    private static final String HEARTBEAT = "dispatch heartbeat";
    private static final String RECOVERY = "dispatch recovery";
    private static final String SWEEP = "dispatch sweep";

    @Inject
    DispatchSettings settings;

    @Inject
    PolicyRegistry policies;

    @Inject
    ThisNode node;

    @Inject
    NodeRepository nodes;

    @Inject
    RecoveryService recovery;

    @Inject
    Sweeper sweeper;

    @Resource
    TimerService timers;

    @PostConstruct
    void start() {
        settings.validate();
        policies.validateSettings();
        LOG.info(() -> "Dispatch policies: " + policies.all());
        nodes.register(node.id(), node.name());
        long heartbeat = settings.heartbeatInterval().toMillis();
        timers.createIntervalTimer(heartbeat, heartbeat, new TimerConfig(HEARTBEAT, false));
        timers.createIntervalTimer(1_000, settings.recoveryInterval().toMillis(), new TimerConfig(RECOVERY, false));
        long sweep = settings.sweepInterval().toMillis();
        timers.createIntervalTimer(sweep, sweep, new TimerConfig(SWEEP, false));
        LOG.info(() -> "Dispatch node " + node.name() + " started as " + node.id());
    }

    @Timeout
    void onTimeout(Timer timer) {
        try {
            if (HEARTBEAT.equals(timer.getInfo())) {
                nodes.heartbeat(node.id());
            } else if (RECOVERY.equals(timer.getInfo())) {
                while (recovery.recoverUnstarted() > 0) {
                    // keep going while rows are adopted
                }
                while (recovery.releaseDeadNodesJobs() > 0) {
                    // keep going while rows are released
                }
            } else if (SWEEP.equals(timer.getInfo())) {
                while (sweeper.sweep() > 0) {
                    // keep going while there is something to delete
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> timer.getInfo() + " failed; it runs again on its next interval");
        }
    }

    @PreDestroy
    void stop() {
        try {
            nodes.stopped(node.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not mark this node stopped; others will see its heartbeat go stale", e);
        }
    }
}
