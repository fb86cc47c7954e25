package io.dispatchpolicy.console.jobs;

import java.io.Serializable;
import java.time.Instant;

/**
 * One job as the Jobs view lists it.
 *
 * @param state        STAGED (waiting, scheduled or parked), ADMITTED or DEAD
 * @param executionId  its latest JBeret execution; null while staged for the first time
 * @param batchStatus  that execution's status in JBeret's table; null without one
 * @param policy       null (and the key and lane) once its partition has been swept
 */
public record JobRow(long submissionId, String state, String policy, String partitionKey, String lane, String jobName,
                     Long executionId, String batchStatus, Instant stagedAt, Instant lastEventAt) implements Serializable {
}
