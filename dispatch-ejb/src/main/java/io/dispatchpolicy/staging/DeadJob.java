package io.dispatchpolicy.staging;

/** A dead job, as its last execution left it: buried in the transaction that frees the execution's slot. */
public record DeadJob(long submissionId, long partitionId, String jobName, long executionId, int attempts, int priority,
                      String submittedBy, String exitStatus, String error) {
}
