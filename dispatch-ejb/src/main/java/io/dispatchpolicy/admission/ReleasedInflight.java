package io.dispatchpolicy.admission;

/**
 * An in-flight row released by recovery (its node gone, or its runner ended unseen): the execution and its
 * submission, and whether an operator asked it to stop (then a STOPPED end stands; else it was interrupted).
 */
public record ReleasedInflight(long executionId, long submissionId, long partitionId, String policyName, int priority,
                               int attempt, boolean stopRequested) {
}
