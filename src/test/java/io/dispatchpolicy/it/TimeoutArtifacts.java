package io.dispatchpolicy.it;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;

/** Jobs for the execution timeouts' tests (TimeoutIT, ADR 0030): one that will not stop, one that stops checkpointing. */
public final class TimeoutArtifacts {

    private TimeoutArtifacts() {
    }

    /**
     * Runs {@code runMs} whatever it is told: its {@code stop()} does nothing and it sleeps on through
     * interrupts — a job hung in code that honours neither.
     */
    @Dependent
    @Named("stubbornBatchlet")
    public static class Stubborn extends AbstractBatchlet {
        @Inject
        JobContext job;

        @Inject
        @BatchProperty
        String runMs;

        @Override
        public String process() {
            Runs.record(job.getExecutionId());
            long until = System.currentTimeMillis() + Long.parseLong(runMs);
            for (long left = until - System.currentTimeMillis(); left > 0; left = until - System.currentTimeMillis()) {
                try {
                    Thread.sleep(left);
                } catch (InterruptedException ignored) {
                    // hung: goes on
                }
            }
            return "COMPLETED";
        }
    }

    /**
     * Reads 1 to 10, two to a chunk, and at {@code stallAt} waits a minute before the item (a remote call
     * that hangs): no checkpoint is written meanwhile. Interrupted, it fails.
     */
    @Dependent
    @Named("stallingReader")
    public static class StallingReader extends AbstractItemReader {
        @Inject
        @BatchProperty
        String stallAt;

        private int last;

        @Override
        public void open(Serializable checkpoint) {
            last = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() throws InterruptedException {
            if (last + 1 == Integer.parseInt(stallAt)) {
                Thread.sleep(60_000);
            }
            return last >= 10 ? null : ++last;
        }

        @Override
        public Serializable checkpointInfo() {
            return last;
        }
    }
}
