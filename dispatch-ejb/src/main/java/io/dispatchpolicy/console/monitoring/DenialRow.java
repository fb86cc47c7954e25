package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * A denial episode: a partition denied for one reason {@code denials} times from {@code since} to
 * {@code deniedAt} (its latest). {@code nextEligibleAt} only on the partition's current episode;
 * {@code pending} as the partition stands now (0 once it is swept); {@code lane} the partition's lane ("" for a key's
 * gate row or a policy without lanes; null once it is swept), so a laned key's denials are told apart.
 */
public record DenialRow(long partitionId, String policyName, String partitionKey, String reason, Instant deniedAt,
                        Instant nextEligibleAt, long pending, Instant since, int denials, String lane) implements java.io.Serializable {
}
