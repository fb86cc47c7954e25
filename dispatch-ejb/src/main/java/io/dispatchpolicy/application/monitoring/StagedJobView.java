package io.dispatchpolicy.application.monitoring;

import java.time.Instant;

/** A staged job on the partition page. */
public record StagedJobView(long submissionId, String jobName, String parametersJson, Instant stagedAt, int attempts,
                            Instant parkedAt, String lastError, Long restartOf) {
}
