package io.dispatchpolicy.application;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.spi.Policy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.List;
import java.util.OptionalInt;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One tick: iterations of claim then admit, for as long as they admit something and
 * {@code dispatch.tick-max-duration} allows. Runs outside any transaction; each claim and each
 * partition's admission is a transaction of its own, so a failing partition rolls back alone and the
 * others proceed.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class TickRunner {

    private static final Logger LOG = Logger.getLogger(TickRunner.class.getName());

    @Inject
    AdmissionService admission;

    @Inject
    PolicyRegistry policies;

    @Inject
    DispatchSettings settings;

    /** @return jobs admitted in this tick */
    public int tick() {
        long deadline = System.nanoTime() + settings.tickMaxDuration().toNanos();
        int total = 0;
        int admitted;
        do {
            admitted = iterate();
            total += admitted;
        } while (admitted > 0 && System.nanoTime() < deadline);
        return total;
    }

    /** One claim and the admission of every claimed partition; @return jobs admitted. */
    public int iterate() {
        List<ClaimedPartition> claimed = admission.claim(settings.partitionBatchSize());
        int admitted = 0;
        for (ClaimedPartition partition : claimed) {
            try {
                admitted += admission.admit(partition, batchSize(partition));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "Admission of partition '" + partition.partitionKey() + "' of policy '"
                        + partition.policyName() + "' rolled back; its jobs stay staged");
            }
        }
        return admitted;
    }

    private int batchSize(ClaimedPartition partition) {
        return policies.named(partition.policyName())
                .map(Policy::admissionBatchSize)
                .filter(OptionalInt::isPresent)
                .map(OptionalInt::getAsInt)
                .orElseGet(settings::admissionBatchSize);
    }
}
