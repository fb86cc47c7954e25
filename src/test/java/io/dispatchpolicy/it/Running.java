package io.dispatchpolicy.it;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How many jobs of a job/tenant, or of a job, run right now, and the most that ever ran at once. */
public final class Running {

    private static final Map<String, AtomicInteger> NOW = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> MAX = new ConcurrentHashMap<>();

    private Running() {
    }

    static void enter(String key) {
        int now = NOW.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        MAX.computeIfAbsent(key, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
    }

    static void exit(String key) {
        NOW.get(key).decrementAndGet();
    }

    public static int max(String key) {
        AtomicInteger m = MAX.get(key);
        return m == null ? 0 : m.get();
    }
}
