package io.dispatchpolicy.running;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.listener.ItemReadListener;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.Optional;

/**
 * The item throttle as a chunk step's listener (ADR 0034): {@code <listener ref="dispatchItemThrottle"/>}. Before each
 * item is read it draws from the partition's bucket — one item at a time, or {@code batch} at once (fewer round trips
 * to the database for fast readers; a batch drawn is spent whether or not the step reads all of it). A stop asked
 * while it waits ends the wait: the step reads on to its checkpoint, where JBeret stops it.
 */
@Dependent
@Named("dispatchItemThrottle")
public class ItemThrottleListener implements ItemReadListener {

    @Inject
    JobContext job;

    @Inject
    ItemThrottles throttles;

    /** Items drawn at once (default 1, at most the bucket's size). */
    @Inject
    @BatchProperty
    String batch;

    private Optional<ItemThrottles.Bucket> bucket;
    private int drawn;

    @Override
    public void beforeRead() {
        if (bucket == null) {
            bucket = throttles.bucketOf(job.getExecutionId());
        }
        if (bucket.isEmpty()) {
            return; // its policy has no item throttle
        }
        if (drawn == 0) {
            int size = batch == null || batch.isBlank() ? 1 : Math.min(Integer.parseInt(batch.strip()), bucket.get().burst());
            if (bucket.get().acquire(size)) {
                drawn = size;
            } else {
                return; // stopping: read on to the checkpoint
            }
        }
        drawn--;
    }

    @Override
    public void afterRead(Object item) {
        // the draw is before the read
    }

    @Override
    public void onReadError(Exception ex) {
        // a failed read spent its token: the call it made counts against the rate
    }
}
