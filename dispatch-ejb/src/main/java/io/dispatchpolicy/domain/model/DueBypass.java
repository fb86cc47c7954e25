package io.dispatchpolicy.domain.model;

/** A due restart that bypasses the gates: its submission and the partition it waits in. */
public record DueBypass(long submissionId, long partitionId) {
}
