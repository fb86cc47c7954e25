package io.dispatchpolicy.application.monitoring;

import java.time.Instant;

/** A staged job on the partition page; {@code dueAt} is set while a job submitted for later is not yet due. */
public record StagedJobView(long submissionId, String jobName, String parametersJson, Instant stagedAt, int attempts,
                            Instant parkedAt, String lastError, Long restartOf, int priority, Instant dueAt) {
}
