package io.dispatchpolicy.domain.model;

/**
 * A validated job submission, with the partition its policy assigned it to.
 *
 * @param jobName      job XML name without {@code .xml}
 * @param parameters   validated parameters
 * @param partitionKey the partition
 * @param lane         the lane of the policy it waits in; {@code ""} outside lanes
 * @param contextJson  the policy's context for this job as JSON, stored on the partition
 * @param priority     higher is admitted first
 * @param delayMillis  not admitted before this long after staging (database clock); null when not delayed
 * @param atMillis     not admitted before this epoch time; null when not set
 * @param tenant       who demotion rules count it for; null when it is counted for nobody
 * @param shard        the shard of its partition; {@code ""} when its policy is not sharded
 * @param cost         the batch threads it takes at its widest: the slots and tokens it takes (ADR 0035)
 * @param offsetMillis how much earlier (positive) or later (negative) than its staging it is ordered within its
 *                     priority (ADR 0046); 0 for none
 */
public record Submission(String jobName, JobParameters parameters, String partitionKey, String lane, String contextJson, int priority,
                         Long delayMillis, Long atMillis, String tenant, String shard, int cost, long offsetMillis) {

    /** The same submission in another lane. */
    public Submission inLane(String otherLane) {
        return new Submission(jobName, parameters, partitionKey, otherLane, contextJson, priority, delayMillis, atMillis, tenant, shard,
                cost, offsetMillis);
    }

    /** Scheduled for later rather than waiting now. */
    public boolean scheduled() {
        return delayMillis != null || atMillis != null;
    }
}
