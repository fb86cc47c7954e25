package io.dispatchpolicy.admission;

/** An in-flight row released by recovery (its node gone, or its runner ended unseen): the execution and its submission. */
public record ReleasedInflight(long executionId, long submissionId, long partitionId, String policyName, int priority,
                               int attempt) {
}
