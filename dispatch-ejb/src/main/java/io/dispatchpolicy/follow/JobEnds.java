package io.dispatchpolicy.follow;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one hook of a submission's final end (ADR 0051), called in the transaction that records it by every
 * path that ends a job for good: a runner's COMPLETED, a FAILED its policy will not retry (dead, or no
 * retries), an operator's STOPPED once released, and the same ends of a gone node's jobs settled by recovery.
 * Not called for an end that is retried or restarted: the submission has not ended yet.
 */
@ApplicationScoped
public class JobEnds {

    @Inject
    Continuations continuations;

    /** Decides what follows the end; a no-op for a submission nobody follows. */
    public void ended(JobEnd end) {
        continuations.ended(end);
    }
}
