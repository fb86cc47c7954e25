package io.dispatchpolicy.it;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How many times each execution's batchlet ran, in this deployment. */
public final class Runs {

    private static final Map<Long, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    private Runs() {
    }

    static void record(long executionId) {
        RUNS.computeIfAbsent(executionId, id -> new AtomicInteger()).incrementAndGet();
    }

    public static int of(long executionId) {
        AtomicInteger n = RUNS.get(executionId);
        return n == null ? 0 : n.get();
    }
}
