package io.dispatchpolicy.console.jobs;

import java.io.Serializable;

/**
 * One link of a job's continuations (ADR 0051), as its page shows it: the other job's submission (null while a
 * continuation waits, or when it was skipped or refused), its job (null for a predecessor: its own page names it),
 * on which end it follows, what became of it, and the end it was decided on or why it was refused.
 */
public record FollowLink(Long submissionId, String jobName, String when, String state, String detail) implements Serializable {
}
