package io.dispatchpolicy.console.jobs;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;

/**
 * One JBeret execution of a job, with its steps, and why it ran: the first run, or a restart after the
 * execution before it ended as it did.
 */
public record ExecutionRecord(long executionId, String batchStatus, String exitStatus, Instant createdAt, Instant startedAt,
                              Instant endedAt, String reason, List<StepRecord> steps) implements Serializable {
}
