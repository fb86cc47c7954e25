package io.dispatchpolicy.domain.model;

import java.time.Instant;

/**
 * A job as admission takes it out of staging.
 *
 * @param submissionId the id the submitter holds
 * @param jobName      job XML name without {@code .xml}
 * @param parameters   its parameters (for a restart: the restart parameters)
 * @param submittedBy  the caller's user name, recorded by JBeret as the execution's user; may be null
 * @param stagedAt     when it was staged
 * @param restartOf    for a restart, the FAILED or STOPPED execution to restart; else null
 * @param priority     higher is admitted first
 * @param dueAt        when a scheduled job is due; null once it is (and for jobs never delayed)
 * @param attempt      which attempt of its submission this is (1 = the submitted run; a retry adds one)
 * @param scheduleId   the schedule it is an occurrence of (its admission stages the next one); else null
 * @param timeouts     the submission's own timeouts ({@code SubmitOption.timeout}, {@code progressTimeout}); none set: its policy's
 * @param cost         the batch threads it takes at its widest: the slots and tokens its admission takes (ADR 0035)
 * @param expiresAt    its deadline: not admitted by then, it expires (ADR 0036); null for none
 * @param orderedAt    the instant it counts as submitted within its priority: staged, moved by its priority offset (ADR 0046)
 */
public record StagedJob(long submissionId, String jobName, JobParameters parameters, String submittedBy, Instant stagedAt,
                        Long restartOf, int priority, Instant dueAt, int attempt, Long scheduleId, JobTimeouts timeouts,
                        int cost, Instant expiresAt, Instant orderedAt) {

    /** Admission order within a partition: higher priority first, then the earlier ordered, then the lower id. */
    public static final java.util.Comparator<StagedJob> ADMISSION_ORDER = java.util.Comparator.comparingInt(StagedJob::priority).reversed()
            .thenComparing(StagedJob::orderedAt).thenComparingLong(StagedJob::submissionId);

    /** Whether its deadline has passed at this time (epoch ms, the database's clock). */
    public boolean expiredAt(long nowMillis) {
        return expiresAt != null && expiresAt.toEpochMilli() <= nowMillis;
    }
}
