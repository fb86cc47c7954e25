package io.dispatchpolicy.bench;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.List;

/** The benchmark jobs' artifacts: a batchlet that does nothing, one that sleeps, and a ten-item chunk step. */
public final class BenchArtifacts {

    private BenchArtifacts() {
    }

    @Dependent
    @Named("noopBatchlet")
    public static class NoopBatchlet extends AbstractBatchlet {
        @Override
        public String process() {
            return "COMPLETED";
        }
    }

    /** Holds a batch thread for a while, so a burst of them builds a queue in the thread pool. */
    @Dependent
    @Named("sleepingBatchlet")
    public static class SleepingBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String millis;

        @Override
        public String process() throws InterruptedException {
            Thread.sleep(Long.parseLong(millis));
            return "COMPLETED";
        }
    }

    /** When each item of the item-throttled jobs was read (issue 35): ns, in the order they were read. */
    public static final java.util.Queue<Long> ITEM_READS = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** {@code count} items, each read's time noted in {@link #ITEM_READS}; the engine's item throttle draws before each. */
    @Dependent
    @Named("timedItemsReader")
    public static class TimedItemsReader extends AbstractItemReader {
        @jakarta.inject.Inject
        @jakarta.batch.api.BatchProperty
        String count;

        private int next;

        @Override
        public void open(Serializable checkpoint) {
            next = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() {
            if (next >= Integer.parseInt(count)) {
                return null;
            }
            ITEM_READS.add(System.nanoTime());
            return next++;
        }

        @Override
        public Serializable checkpointInfo() {
            return next;
        }
    }

    @Dependent
    @Named("tenItemsReader")
    public static class TenItemsReader extends AbstractItemReader {
        private int next;

        @Override
        public void open(Serializable checkpoint) {
            next = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() {
            return next < 10 ? next++ : null;
        }

        @Override
        public Serializable checkpointInfo() {
            return next;
        }
    }

    @Dependent
    @Named("doublingProcessor")
    public static class DoublingProcessor implements ItemProcessor {
        @Override
        public Object processItem(Object item) {
            return (Integer) item * 2;
        }
    }

    @Dependent
    @Named("discardingWriter")
    public static class DiscardingWriter extends AbstractItemWriter {
        @Override
        public void writeItems(List<Object> items) {
            // the point is the step machinery, not the output
        }
    }
}
