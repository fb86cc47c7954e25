package io.dispatchpolicy.operator;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.AuditTrail;
import io.dispatchpolicy.console.audit.OperatorAction;
import io.dispatchpolicy.partition.PartitionPauses;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.Optional;

/**
 * A job's pause of its partition in a transaction of its own (ADR 0033): it stands whatever becomes of the job's
 * own transaction (a chunk that rolls back after it paused), and its audit row commits with it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class PauseTransactions {

    @Inject
    PartitionPauses pauses;

    @Inject
    AuditTrail audit;

    /** @see PartitionPauses#pause */
    public Optional<PartitionPauses.Paused> pause(long executionId, Long untilMillis, Long waitMillis, String reason) {
        Optional<PartitionPauses.Paused> paused = pauses.pause(executionId, untilMillis, waitMillis, reason);
        paused.ifPresent(p -> audit.done(Actor.of("job:execution " + executionId), OperatorAction.PARTITION_PAUSED_BY_JOB,
                String.valueOf(p.partitionId()), null, "paused until " + p.until() + ": " + reason));
        return paused;
    }
}
