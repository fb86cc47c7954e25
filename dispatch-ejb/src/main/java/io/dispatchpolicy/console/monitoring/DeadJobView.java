package io.dispatchpolicy.console.monitoring;

import java.io.Serializable;
import java.time.Instant;

/**
 * A dead job as the console shows it: its submission, where it belongs, its last (FAILED) execution,
 * how many attempts it had and why the last one failed.
 */
public record DeadJobView(long submissionId, String policyName, long partitionId, String partitionKey, String jobName,
                          long executionId, int attempts, int priority, String submittedBy, String exitStatus, String error,
                          Instant diedAt)
        implements Serializable {
}
