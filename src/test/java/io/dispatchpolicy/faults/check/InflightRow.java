package io.dispatchpolicy.faults.check;

import java.time.Instant;

/** A row left in {@code dispatch.inflight_jobs}, with its node and what JBeret says of its execution. */
public record InflightRow(long executionId, long submissionId, String partitionKey, String nodeName,
                          Instant nodeHeartbeat, Instant nodeStopped, Instant admittedAt, Instant startedAt,
                          String jberetStatus, Instant jberetEnded) {

    @Override
    public String toString() {
        return "execution " + executionId + " (submission " + submissionId + ", tenant " + partitionKey + ", node "
                + nodeName + (nodeStopped != null ? " stopped " + nodeStopped : " heartbeat " + nodeHeartbeat)
                + ", admitted_at " + admittedAt + ", started_at " + startedAt
                + ", JBeret " + jberetStatus + (jberetEnded != null ? " ended " + jberetEnded : "") + ")";
    }
}
