package io.dispatchpolicy.it;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chunk jobs for the item throttle's tests (ItemThrottleIT, ADR 0034): a reader of {@code count} items that notes,
 * per tenant, when (this JVM's nanoTime) each item was read — the call a real job would make to its tenant's API.
 */
public final class ItemClock {

    private static final Map<String, List<Long>> READ_AT = new ConcurrentHashMap<>();

    private ItemClock() {
    }

    /** When each item of the tenant's jobs was read, in order. */
    public static List<Long> readAt(String tenant) {
        List<Long> at = new ArrayList<>(READ_AT.getOrDefault(tenant, List.of()));
        at.sort(null);
        return at;
    }

    @Dependent
    @Named("clockedReader")
    public static class Reader extends AbstractItemReader {
        @Inject
        @BatchProperty
        String count;

        @Inject
        @BatchProperty
        String tenant;

        private int last;

        @Override
        public void open(Serializable checkpoint) {
            last = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() {
            if (last >= Integer.parseInt(count)) {
                return null;
            }
            READ_AT.computeIfAbsent(tenant, t -> java.util.Collections.synchronizedList(new ArrayList<>())).add(System.nanoTime());
            return ++last;
        }

        @Override
        public Serializable checkpointInfo() {
            return last;
        }
    }

    @Dependent
    @Named("clockedDiscardingWriter") // not "discardingWriter": the benchmarks deploy with these tests and have one
    public static class Writer extends AbstractItemWriter {
        @Override
        public void writeItems(List<Object> items) {
            // the items' work is the read
        }
    }
}
