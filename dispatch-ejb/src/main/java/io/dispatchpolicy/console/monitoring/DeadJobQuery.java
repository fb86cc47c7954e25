package io.dispatchpolicy.console.monitoring;

/**
 * A page of the Dead view, newest first.
 *
 * @param policy           only this policy, or null for all
 * @param partitionContains a substring of the partition key (case-insensitive), or null
 * @param jobName          only this job, or null
 * @param text             a substring of the error or exit status (case-insensitive), or null
 */
public record DeadJobQuery(String policy, String partitionContains, String jobName, String text, int first, int pageSize) implements java.io.Serializable {

    public static DeadJobQuery all(int pageSize) {
        return new DeadJobQuery(null, null, null, null, 0, pageSize);
    }
}
