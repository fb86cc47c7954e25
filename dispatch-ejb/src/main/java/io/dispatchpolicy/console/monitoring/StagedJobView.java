package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * A staged job on the partition page; {@code dueAt} is set while a job submitted for later (or a retry)
 * is not yet due; {@code attempts} counts failed admissions, {@code attempt} is which run of its
 * submission it will be (2 and up: a retry); {@code lane} the lane it waits in ({@code ""} outside lanes).
 */
public record StagedJobView(long submissionId, String jobName, String parametersJson, Instant stagedAt, int attempts,
                            Instant parkedAt, String lastError, Long restartOf, int priority, Instant dueAt, int attempt,
                            String lane) implements java.io.Serializable {
}
