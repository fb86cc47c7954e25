package io.dispatchpolicy.application;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.persistence.InflightRepository;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.List;
import java.util.logging.Logger;

/**
 * Adopts never-started in-flight rows of dead nodes and starts their executions exactly once: the
 * adoption UPDATE hands each row to one node, and the runner's start mark only succeeds for the owner.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DefaultRecoveryService implements RecoveryService {

    private static final Logger LOG = Logger.getLogger(DefaultRecoveryService.class.getName());

    /** Rows adopted per transaction, so one recovery pass stays short. */
    static final int BATCH = 500;

    @Inject
    InflightRepository inflight;

    @Inject
    ExecutionFactory executions;

    @Inject
    ThisNode node;

    @Inject
    DispatchSettings settings;

    @Override
    public int recoverUnstarted() {
        List<Long> adopted = inflight.adoptUnstarted(node.id(), node.name(), settings.inflightStaleAfter(), BATCH);
        int resumed = 0;
        for (long executionId : adopted) {
            if (executions.resume(executionId, node.id())) {
                resumed++;
            } else {
                // Its execution is gone or no longer STARTING: nothing to start; the row is stale bookkeeping.
                inflight.finished(executionId);
            }
        }
        if (resumed > 0) {
            int count = resumed;
            LOG.info(() -> "Recovered " + count + " admitted execution(s) whose runner never started: " + adopted);
        }
        return resumed;
    }
}
