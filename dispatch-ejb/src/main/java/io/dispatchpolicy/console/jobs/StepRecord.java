package io.dispatchpolicy.console.jobs;

import java.io.Serializable;
import java.time.Instant;

/** A step execution: its status, exit status, times, and the failure JBeret recorded for it. */
public record StepRecord(long stepExecutionId, String stepName, String batchStatus, String exitStatus, Instant startedAt,
                         Instant endedAt, String failure) implements Serializable {
}
