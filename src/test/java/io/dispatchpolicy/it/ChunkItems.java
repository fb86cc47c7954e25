package io.dispatchpolicy.it;

import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A chunk job over the numbers 1 to 10, two per chunk, whose processor fails at 7 on its job
 * instance's first execution only: a restart must resume after the last checkpoint (6) — what each
 * execution wrote is recorded here.
 */
public final class ChunkItems {

    private static final Map<Long, List<Integer>> WRITTEN = new ConcurrentHashMap<>();
    private static final Set<Long> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    private ChunkItems() {
    }

    public static List<Integer> writtenBy(long executionId) {
        return WRITTEN.getOrDefault(executionId, List.of());
    }

    @Dependent
    @Named("numberReader")
    public static class Reader extends AbstractItemReader {
        private int last;

        @Override
        public void open(Serializable checkpoint) {
            last = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() {
            return last >= 10 ? null : ++last;
        }

        @Override
        public Serializable checkpointInfo() {
            return last;
        }
    }

    @Dependent
    @Named("failOnceAtSeven")
    public static class Processor implements ItemProcessor {
        @Inject
        JobContext job;

        @Override
        public Object processItem(Object item) {
            if ((Integer) item == 7 && FAILED_ONCE.add(job.getInstanceId())) {
                throw new IllegalStateException("item 7 fails the first time");
            }
            return item;
        }
    }

    @Dependent
    @Named("numberWriter")
    public static class Writer extends AbstractItemWriter {
        @Inject
        JobContext job;

        @Override
        public void writeItems(List<Object> items) {
            List<Integer> written = WRITTEN.computeIfAbsent(job.getExecutionId(), id -> new CopyOnWriteArrayList<>());
            items.forEach(i -> written.add((Integer) i));
        }
    }
}
