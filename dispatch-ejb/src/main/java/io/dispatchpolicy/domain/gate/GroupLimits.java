package io.dispatchpolicy.domain.gate;

import io.dispatchpolicy.spi.Limit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Shared limits' keys as one admission transaction holds them locked (ADR 0049), reckoned for the partitions it
 * admits together, one after the other: what each may take given what the ones before it may take, then the
 * buckets charged for what each took. Pure; the locking is the admission's.
 */
public final class GroupLimits {

    /** A partition's jobs taken through the limits: its context, the lock's clock, the slots they take. */
    public record Use(Map<String, Object> context, long nowMillis, int slots) {
    }

    private final List<Limit> limits;
    private final Map<SharedLimits.Key, SharedLimits.Held> locked;
    private final Map<SharedLimits.Key, SharedLimits.Held> reserved;
    private final Map<SharedLimits.Key, SharedLimits.Held> charged;

    /** @param locked every key of the transaction's partitions, as read under its lock */
    public GroupLimits(List<Limit> limits, Map<SharedLimits.Key, SharedLimits.Held> locked) {
        this.limits = List.copyOf(limits);
        this.locked = Map.copyOf(locked);
        this.reserved = new HashMap<>(locked);
        this.charged = new HashMap<>(locked);
    }

    /** Every key read, in lock order: what a group locks once it has taken its jobs. */
    public List<SharedLimits.Key> keys() {
        return locked.keySet().stream().sorted(SharedLimits.Key.LOCK_ORDER).toList();
    }

    /**
     * What the limits allow the next partition, after what the ones before it reserved; up to {@code wanted} of it
     * is reserved in turn. Reserved is what the next ones are checked on: what was taken is checked again (passedBy).
     */
    public Reservation reserve(Map<String, Object> context, long nowMillis, int wanted) {
        Map<SharedLimits.Key, SharedLimits.Held> before = new HashMap<>();
        for (SharedLimits.Key key : SharedLimits.keys(limits, context)) {
            before.put(key, reserved.getOrDefault(key, new SharedLimits.Held(null, 0)));
        }
        GateCheck check = SharedLimits.check(limits, context, before, nowMillis, 1);
        if (!check.denied()) {
            reserved.putAll(SharedLimits.after(limits, context, before, nowMillis, (int) Math.min(wanted, check.allowed())));
        }
        return new Reservation(limits, context, nowMillis, before, check);
    }

    /** A partition's reservation: what the limits allowed it ({@code check}) on the keys as the ones before it left them. */
    public record Reservation(List<Limit> limits, Map<String, Object> context, long nowMillis,
                              Map<SharedLimits.Key, SharedLimits.Held> before, GateCheck check) {

        /** What the limits, as the partitions before it left them, say to a job costing {@code need}. */
        public GateCheck forJobOf(int need) {
            return SharedLimits.check(limits, context, before, nowMillis, need);
        }
    }

    /**
     * The first limit the partitions' jobs, as taken and in their order, pass together, or empty: jobs costing more
     * than was reserved for them (a slot each) may.
     */
    public Optional<String> passedBy(List<Use> uses) {
        Map<SharedLimits.Key, SharedLimits.Held> after = new HashMap<>(locked);
        for (Use use : uses) {
            if (use.slots() == 0) {
                continue;
            }
            GateCheck check = SharedLimits.check(limits, use.context(), after, use.nowMillis(), use.slots());
            if (check.denied()) {
                return Optional.of(check.reason());
            }
            after.putAll(SharedLimits.after(limits, use.context(), after, use.nowMillis(), use.slots()));
        }
        return Optional.empty();
    }

    /** The buckets once a partition's admitted jobs ({@code slots}) are charged after the ones charged before. */
    public Map<SharedLimits.Key, TokenBucket.State> charge(Map<String, Object> context, long nowMillis, int slots) {
        Map<SharedLimits.Key, TokenBucket.State> buckets = SharedLimits.charged(limits, context, charged, nowMillis, slots);
        charged.putAll(SharedLimits.after(limits, context, charged, nowMillis, slots));
        return buckets;
    }
}
