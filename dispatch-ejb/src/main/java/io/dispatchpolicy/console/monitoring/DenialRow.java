package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * A denial episode: a partition denied for one reason {@code denials} times from {@code since} to
 * {@code deniedAt} (its latest). {@code nextEligibleAt} only on the partition's current episode;
 * {@code pending} as the partition stands now (0 once it is swept).
 */
public record DenialRow(long partitionId, String policyName, String partitionKey, String reason, Instant deniedAt,
                        Instant nextEligibleAt, long pending, Instant since, int denials) implements java.io.Serializable {
}
