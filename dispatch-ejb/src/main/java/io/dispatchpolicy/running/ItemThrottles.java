package io.dispatchpolicy.running;

import io.dispatchpolicy.api.ItemThrottle;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.ItemRate;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;

/**
 * {@link ItemThrottle} (ADR 0034): a token bucket per partition key in the database, drawn in a transaction of its own;
 * between draws the caller waits in this JVM, holding no lock or connection of the engine's, in slices of at most
 * {@link #SLICE_MS}, and stops waiting when its execution is asked to stop (JBeret's STOPPING, or an interrupt: a
 * timeout's, ADR 0030).
 */
@ApplicationScoped
public class ItemThrottles implements ItemThrottle {

    /** The longest the caller sleeps before it looks again at its execution's status. */
    static final long SLICE_MS = 250;

    @Inject
    ItemBucketRepository buckets;

    @Inject
    ItemBucketTransactions transactions;

    @Inject
    PolicyRegistry policies;

    @Inject
    io.dispatchpolicy.policy.PolicySettings settings;

    @Inject
    JobRuntime runtime;

    @Override
    public boolean acquire(long executionId, int items) {
        return bucketOf(executionId).map(b -> b.acquire(items)).orElse(true);
    }

    /**
     * The bucket an execution draws from: its partition key's, at its policy's item rate; empty when its policy has
     * no item throttle (nothing to wait for).
     *
     * @throws IllegalStateException when the execution is not a governed job in flight
     */
    public Optional<Bucket> bucketOf(long executionId) {
        String[] key = buckets.keyOf(executionId).orElseThrow(() -> new IllegalStateException("ItemThrottle: execution "
                + executionId + " is not a governed job in flight, so it has no partition to draw from"));
        // standalone.xml's item-rate / item-burst over the declared throttle, read as the step begins (live)
        return policies.named(key[0]).flatMap(settings::itemRate).map(rate -> new Bucket(executionId, key[0], key[1], rate));
    }

    /** One execution's draws from its partition's bucket. */
    public final class Bucket {
        private final long executionId;
        private final String policy;
        private final String key;
        private final ItemRate rate;

        Bucket(long executionId, String policy, String key, ItemRate rate) {
            this.executionId = executionId;
            this.policy = policy;
            this.key = key;
            this.rate = rate;
        }

        /** What a full bucket holds: the most one draw may ask for. */
        public int burst() {
            return (int) Math.floor(rate.burst());
        }

        /** Waits for and draws {@code items}; @return false when the execution was asked to stop meanwhile. */
        public boolean acquire(int items) {
            if (items < 1 || items > rate.burst()) {
                throw new IllegalArgumentException("ItemThrottle: draw 1 to " + burst() + " items at a time (the bucket of policy '"
                        + policy + "' holds " + rate.burst() + "), not " + items);
            }
            while (true) {
                double waitSeconds = transactions.take(policy, key, items, rate.perSecond(), rate.burst());
                if (waitSeconds <= 0) {
                    return true;
                }
                long waitMs = Math.max(1, (long) Math.ceil(waitSeconds * 1000));
                while (waitMs > 0) {
                    if (stopping()) {
                        return false;
                    }
                    long slice = Math.min(waitMs, SLICE_MS);
                    try {
                        Thread.sleep(slice);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // the job's code sees it too
                        return false;
                    }
                    waitMs -= slice;
                }
            }
        }

        private boolean stopping() {
            try {
                BatchStatus status = runtime.batchStatus(executionId);
                return status == BatchStatus.STOPPING || status == BatchStatus.STOPPED;
            } catch (RuntimeException e) {
                return false; // no status: keep waiting; the draw itself fails if the database is gone
            }
        }
    }
}
