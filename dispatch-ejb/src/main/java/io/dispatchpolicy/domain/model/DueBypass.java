package io.dispatchpolicy.domain.model;

/** A due restart that bypasses the gates: its submission, the partition it waits in, and the batch threads it takes (its cost). */
public record DueBypass(long submissionId, long partitionId, int cost) {
}
