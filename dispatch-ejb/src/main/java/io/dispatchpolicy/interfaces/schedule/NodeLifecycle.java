package io.dispatchpolicy.interfaces.schedule;

import io.dispatchpolicy.application.PolicyRegistry;
import io.dispatchpolicy.application.RecoveryService;
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
 * registers the node, then heartbeats and runs recovery on timers. The first recovery runs a second
 * after boot, which is when a restarted node starts the executions its earlier life admitted but
 * never handed to JBeret.
 */
@Singleton
@Startup
@DependsOn("SchemaMigrator")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class NodeLifecycle {

    private static final Logger LOG = Logger.getLogger(NodeLifecycle.class.getName());
    private static final String HEARTBEAT = "dispatch heartbeat";
    private static final String RECOVERY = "dispatch recovery";

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

    @Resource
    TimerService timers;

    @PostConstruct
    void start() {
        settings.validate();
        LOG.info(() -> "Dispatch policies: " + policies.all());
        nodes.register(node.id(), node.name());
        long heartbeat = settings.heartbeatInterval().toMillis();
        timers.createIntervalTimer(heartbeat, heartbeat, new TimerConfig(HEARTBEAT, false));
        timers.createIntervalTimer(1_000, settings.recoveryInterval().toMillis(), new TimerConfig(RECOVERY, false));
        LOG.info(() -> "Dispatch node " + node.name() + " started as " + node.id());
    }

    @Timeout
    void onTimeout(Timer timer) {
        try {
            if (HEARTBEAT.equals(timer.getInfo())) {
                nodes.heartbeat(node.id());
            } else if (RECOVERY.equals(timer.getInfo())) {
                while (recovery.recoverUnstarted() > 0) {
                    // keep going while whole batches are adopted
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
