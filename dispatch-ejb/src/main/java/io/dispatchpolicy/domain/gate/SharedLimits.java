package io.dispatchpolicy.domain.gate;

import io.dispatchpolicy.spi.Limit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Named limits' arithmetic (ADR 0049), pure: which limit keys a partition's jobs pass, what they allow given what
 * is in flight under each key and each key's token bucket, and the buckets once the admitted jobs are charged.
 * A limit allows the least of its per-key and total concurrency and rate; a partition is allowed the least of
 * its limits', and the first limit (in its policy's order) that allows nothing is the one its denial names.
 */
public final class SharedLimits {

    /** A limit whose concurrency is in flight: {@code limit_full:<name>}. */
    public static final String FULL = "limit_full";
    /** A limit whose bucket has too few tokens: {@code limit_throttled:<name>}. */
    public static final String THROTTLED = "limit_throttled";
    /**
     * A full concurrency limit is asked again this soon: a slot it waits for may be freed by another policy's job,
     * which wakes none of this policy's partitions.
     */
    public static final Duration FULL_BACKOFF = Duration.ofMillis(500);

    private SharedLimits() {
    }

    /**
     * One key of a limit: a per-key value, or {@code ""} for its total. Keys are locked in this order — by limit
     * name, then key, by code point — by every admission, so admissions of policies sharing limits never deadlock.
     */
    public record Key(String limit, String key) {
        public static final Comparator<Key> LOCK_ORDER = Comparator.comparing(Key::limit).thenComparing(Key::key);

        /** As the in-flight rows carry it: {@code <name>} for the total, {@code <name>/<key>} per key. */
        public String encoded() {
            return key.isEmpty() ? limit : limit + "/" + key;
        }
    }

    /** A key as read under its lock: its bucket (null before its first charge) and the slots in flight under it. */
    public record Held(TokenBucket.State bucket, long inFlight) {
    }

    /**
     * The keys the jobs of a partition with this context pass, in lock order.
     *
     * @throws IllegalArgumentException when the context lacks a limit's key value, or it is blank
     */
    public static List<Key> keys(List<Limit> limits, Map<String, Object> context) {
        List<Key> keys = new ArrayList<>();
        for (Limit limit : limits) {
            if (limit.key() != null) {
                Object value = context.get(limit.key());
                if (value == null || value.toString().isBlank()) {
                    throw new IllegalArgumentException("limit '" + limit.name() + "' is per '" + limit.key()
                            + "', which the context " + (value == null ? "lacks" : "has blank"));
                }
                keys.add(new Key(limit.name(), value.toString()));
            }
            if (limit.totalConcurrency() != null || limit.totalRate() != null) {
                keys.add(new Key(limit.name(), ""));
            }
        }
        keys.sort(Key.LOCK_ORDER);
        return keys;
    }

    /**
     * What the limits allow a job that costs {@code need} now: the slots all of them leave, or the first one's
     * denial that leaves fewer than {@code need}.
     */
    public static GateCheck check(List<Limit> limits, Map<String, Object> context, Map<Key, Held> held, long nowMillis, int need) {
        long allowed = Long.MAX_VALUE;
        for (Limit limit : limits) {
            for (Side side : sides(limit, context)) {
                Held h = held.getOrDefault(side.key(), new Held(null, 0));
                if (side.concurrency() != null) {
                    long left = side.concurrency() - h.inFlight();
                    if (left < need) {
                        return GateCheck.deny(FULL + ":" + limit.name(), FULL_BACKOFF);
                    }
                    allowed = Math.min(allowed, left);
                }
                if (side.rate() != null) {
                    TokenBucket.State bucket = TokenBucket.refill(h.bucket(), side.rate(), side.perSeconds(), nowMillis);
                    GateCheck c = TokenBucket.check(bucket, side.rate(), side.perSeconds(), need);
                    if (c.denied()) {
                        return GateCheck.deny(THROTTLED + ":" + limit.name(), c.retryAfter());
                    }
                    allowed = Math.min(allowed, c.allowed());
                }
            }
        }
        return GateCheck.allow(allowed);
    }

    /** The buckets of the limits' rated keys once {@code tokens} were taken from each (admitted jobs' costs). */
    public static Map<Key, TokenBucket.State> charged(List<Limit> limits, Map<String, Object> context, Map<Key, Held> held,
                                                      long nowMillis, int tokens) {
        Map<Key, TokenBucket.State> charged = new HashMap<>();
        for (Limit limit : limits) {
            for (Side side : sides(limit, context)) {
                if (side.rate() != null) {
                    Held h = held.getOrDefault(side.key(), new Held(null, 0));
                    charged.put(side.key(), TokenBucket.charge(TokenBucket.refill(h.bucket(), side.rate(), side.perSeconds(), nowMillis),
                            tokens));
                }
            }
        }
        return charged;
    }

    /**
     * What the keys hold once {@code slots} more were admitted through them: each key's slots in flight raised, its
     * bucket (when rated) charged. Partitions admitted in one transaction are checked one after the other on it.
     */
    public static Map<Key, Held> after(List<Limit> limits, Map<String, Object> context, Map<Key, Held> held, long nowMillis,
                                       int slots) {
        Map<Key, TokenBucket.State> buckets = charged(limits, context, held, nowMillis, slots);
        Map<Key, Held> after = new HashMap<>();
        for (Limit limit : limits) {
            for (Side side : sides(limit, context)) {
                Held h = held.getOrDefault(side.key(), new Held(null, 0));
                after.put(side.key(), new Held(buckets.getOrDefault(side.key(), h.bucket()), h.inFlight() + slots));
            }
        }
        return after;
    }

    /** One side of a limit — per key or total — with what it bounds. */
    private record Side(Key key, Integer concurrency, Double rate, double perSeconds) {
    }

    private static List<Side> sides(Limit limit, Map<String, Object> context) {
        List<Side> sides = new ArrayList<>(2);
        if (limit.key() != null) {
            sides.add(new Side(new Key(limit.name(), String.valueOf(context.get(limit.key()))), limit.concurrency(), limit.rate(),
                    limit.rate() == null ? 1 : limit.perSeconds()));
        }
        if (limit.totalConcurrency() != null || limit.totalRate() != null) {
            sides.add(new Side(new Key(limit.name(), ""), limit.totalConcurrency(), limit.totalRate(),
                    limit.totalRate() == null ? 1 : limit.totalPerSeconds()));
        }
        return sides;
    }
}
