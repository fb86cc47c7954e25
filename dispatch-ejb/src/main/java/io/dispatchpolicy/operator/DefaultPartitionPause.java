package io.dispatchpolicy.operator;

import io.dispatchpolicy.api.PartitionPause;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.partition.PartitionPauses;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * {@link PartitionPause} for the application's jobs (ADR 0033): the bad input is refused here, at the boundary,
 * as plain exceptions (not an EJB's wrapped ones); the pause itself is {@link PauseTransactions}'s.
 */
@ApplicationScoped
public class DefaultPartitionPause implements PartitionPause {

    private static final Logger LOG = Logger.getLogger(DefaultPartitionPause.class.getName());

    @Inject
    PauseTransactions transactions;

    @Override
    public Instant pauseFor(long executionId, Duration wait, String reason) {
        if (wait == null || wait.isZero() || wait.isNegative() || wait.compareTo(SubmitOption.HORIZON) > 0) {
            throw new IllegalArgumentException("PartitionPause.pauseFor: the wait must be more than 0 and at most "
                    + SubmitOption.HORIZON.toDays() + " days, was " + wait);
        }
        return pause(executionId, null, wait.toMillis(), reason);
    }

    @Override
    public Instant pauseUntil(long executionId, Instant until, String reason) {
        Instant now = Instant.now();
        if (until == null || !until.isAfter(now)) {
            throw new IllegalArgumentException("PartitionPause.pauseUntil: " + until + " is not in the future (now " + now + ")");
        }
        if (until.isAfter(now.plus(SubmitOption.HORIZON))) {
            throw new IllegalArgumentException("PartitionPause.pauseUntil: " + until + " is more than " + SubmitOption.HORIZON.toDays()
                    + " days ahead");
        }
        return pause(executionId, until.toEpochMilli(), null, reason);
    }

    private Instant pause(long executionId, Long untilMillis, Long waitMillis, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("PartitionPause: give a reason (it is shown in the partition's \"why waiting\")");
        }
        String why = reason.strip().length() > 500 ? reason.strip().substring(0, 500) : reason.strip();
        PartitionPauses.Paused paused = transactions.pause(executionId, untilMillis, waitMillis, why)
                .orElseThrow(() -> new IllegalStateException("PartitionPause: execution " + executionId
                        + " is not a governed job in flight, so it has no partition to pause"));
        LOG.info(() -> "Execution " + executionId + " paused partition '" + paused.partitionKey() + "' of policy '"
                + paused.policyName() + "' until " + paused.until() + ": " + why);
        return paused.until();
    }
}
