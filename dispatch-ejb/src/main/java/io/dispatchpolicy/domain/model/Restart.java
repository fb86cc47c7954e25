package io.dispatchpolicy.domain.model;

import java.time.Duration;

/**
 * A restart of an execution staged for the submission it runs for: after a crash or an outage
 * (same attempt, due at once), as a retry of a failure (next attempt, due after the policy's delay), or
 * on an operator's word from the Dead view.
 *
 * @param executionId the FAILED or STOPPED execution to restart (the most recent of its instance)
 * @param submittedBy the user JBeret records for the restart; may be null
 * @param attempt     the attempt the restart will be (1 = the submitted run)
 * @param delay       how long after now it is due; null: waiting at once
 * @param bypass      when due, straight to JBeret past the gates (the policy's retry-strategy "bypass")
 */
public record Restart(long submissionId, long partitionId, String jobName, long executionId, String submittedBy,
                      int priority, int attempt, Duration delay, boolean bypass) {
}
