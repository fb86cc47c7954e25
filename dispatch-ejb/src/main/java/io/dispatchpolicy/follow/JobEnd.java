package io.dispatchpolicy.follow;

import jakarta.batch.runtime.BatchStatus;

/**
 * A submission's last end, as its followers see it: the execution that ended, its job, and how it ended
 * (COMPLETED; FAILED with no retry to come; STOPPED by an operator).
 */
public record JobEnd(long submissionId, long executionId, String jobName, BatchStatus status, String exitStatus) {
}
