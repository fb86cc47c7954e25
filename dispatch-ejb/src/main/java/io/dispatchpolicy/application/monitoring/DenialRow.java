package io.dispatchpolicy.application.monitoring;

import java.time.Instant;

/** A partition's latest denial. */
public record DenialRow(long partitionId, String policyName, String partitionKey, String reason, Instant deniedAt,
                        Instant nextEligibleAt, long pending) {
}
