package io.dispatchpolicy.domain.lane;

import io.dispatchpolicy.spi.Demotion;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this node last learned of its tenants' counts, to guess where a call's jobs go before they are
 * counted (ADR 0011). A guess is only ever staged with the bounds that make it right, checked against
 * the real counts by the database: a wrong guess costs a second statement, never a job in the wrong lane.
 * So it may be stale, miss other nodes' submissions and forget tenants: it is bounded, and cleared when
 * full, rather than kept exact.
 */
public final class RecentWindows {

    private final int capacity;
    private final Map<Key, Seen> seen = new ConcurrentHashMap<>();

    /** @param capacity the tenants remembered at most; past it, everything is forgotten at once */
    public RecentWindows(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Each tenant's guessed counts in each rule's window with {@code inCall} more jobs: what it had when
     * last counted here (nothing once the window has passed since, or when the rules have changed since),
     * plus the call's.
     */
    public Map<String, int[]> guess(String policy, List<Demotion> rules, Map<String, Integer> inCall, long nowMillis) {
        Map<String, int[]> guessed = new HashMap<>();
        inCall.forEach((tenant, n) -> {
            Seen last = seen.get(new Key(policy, tenant));
            int[] counts = new int[rules.size()];
            for (int r = 0; r < rules.size(); r++) {
                boolean known = last != null && last.rules().equals(rules)
                        && nowMillis - last.atMillis() < rules.get(r).per().toMillis();
                counts[r] = (known ? last.counts()[r] : 0) + n;
            }
            guessed.put(tenant, counts);
        });
        return guessed;
    }

    /** Remembers the tenants' counts in each rule's window, as a counting statement has just returned them. */
    public void remember(String policy, List<Demotion> rules, Map<String, int[]> windows, long nowMillis) {
        if (seen.size() + windows.size() > capacity) {
            seen.clear();
        }
        windows.forEach((tenant, counts) -> seen.put(new Key(policy, tenant), new Seen(rules, counts, nowMillis)));
    }

    private record Key(String policy, String tenant) {
    }

    private record Seen(List<Demotion> rules, int[] counts, long atMillis) {
    }
}
