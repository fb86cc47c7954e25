package io.dispatchpolicy.follow;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one hook of a submission's final end (ADR 0051), called in the transaction that records it by every
 * path that ends a job for good: a runner's COMPLETED, a FAILED its policy will not retry (dead, or no
 * retries), an operator's STOPPED once released, and the same ends of a gone node's jobs settled by recovery.
 * Not called for an end that is retried or restarted: the submission has not ended yet. Its followers are
 * locked and decided by kind: a continuation staged or skipped, a group member counted (ADR 0052), a fixed-delay
 * schedule's next run staged (ADR 0054).
 */
@ApplicationScoped
public class JobEnds {

    @Inject
    FollowerRepository followers;

    @Inject
    Continuations continuations;

    @Inject
    Groups groups;

    @Inject
    io.dispatchpolicy.schedule.ScheduleChaining schedules;

    /** Decides what follows the end; a no-op for a submission nobody follows. */
    public void ended(JobEnd end) {
        for (FollowerRepository.Waiting w : followers.lockWaiting(end.submissionId())) {
            if ("group".equals(w.kind())) {
                groups.memberEnded(w, end);
            } else if ("schedule".equals(w.kind())) {
                // a fixed-delay schedule's run (ADR 0054): its next is due a delay after this end
                io.dispatchpolicy.schedule.ScheduleChaining.AfterEnd next = schedules.ended(end.submissionId());
                followers.decide(w.id(), next.staged() != null ? "staged" : "skipped", next.staged(),
                        end.status() + ": " + next.detail());
            } else {
                continuations.ended(w, end);
            }
        }
    }
}
