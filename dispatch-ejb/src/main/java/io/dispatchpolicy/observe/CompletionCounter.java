package io.dispatchpolicy.observe;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Executions this node saw end since the last tick sample, and how many FAILED: counted in memory
 * and written with the sample, so the failure rate costs the hot path nothing.
 */
@ApplicationScoped
public class CompletionCounter {

    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    public void record(boolean wasFailure) {
        completed.incrementAndGet();
        if (wasFailure) {
            failed.incrementAndGet();
        }
    }

    /** @return {completed, failed} since the previous call */
    public long[] drain() {
        return new long[] {completed.getAndSet(0), failed.getAndSet(0)};
    }
}
