package io.dispatchpolicy.spi;

import java.time.Duration;

/**
 * A gate a policy's partitions pass through, in declared order. Build one with the static factories
 * and add it with {@link Policy.Builder#gate(Gate)}. A gate's id is its type ({@code throttle},
 * {@code concurrency}, {@code adaptive-concurrency}, {@code quota}), or {@code type-2}, {@code type-3}… for later
 * gates of the same type, or the name given with {@code named(...)}; the id keys its state and its
 * {@code dispatch.policy.<policy>.gate.<id>.<param>} overrides.
 */
public sealed interface Gate permits Gate.Throttle, Gate.Concurrency, Gate.AdaptiveConcurrency, Gate.Quota {

    /** Explicit name, or null for the type-derived id. */
    String name();

    String type();

    /** Token bucket: up to {@code rate} jobs per {@code per}, refilled continuously, starting full. */
    static Throttle throttle(double rate, Duration per) {
        return new Throttle(null, Param.constant(rate), Param.constant(seconds(per, "throttle per")));
    }

    /** Token bucket whose rate comes from the partition's context. */
    static Throttle throttle(Param rate, Duration per) {
        return new Throttle(null, rate, Param.constant(seconds(per, "throttle per")));
    }

    /** Token bucket whose rate and period (in seconds) both come from the partition's context. */
    static Throttle throttle(Param rate, Param perSeconds) {
        return new Throttle(null, rate, perSeconds);
    }

    /** At most {@code max} admitted-but-unfinished jobs per partition. */
    static Concurrency concurrency(int max) {
        return new Concurrency(null, Param.constant(max), Param.constant(1));
    }

    static Concurrency concurrency(Param max) {
        return new Concurrency(null, max, Param.constant(1));
    }

    /**
     * A concurrency cap per partition that grows by one per job that started within
     * {@code targetLagMs} of its admission, shrinks by 5% when the smoothed lag exceeds it, and halves
     * on a failure.
     */
    static AdaptiveConcurrency adaptiveConcurrency(int initialMax, long targetLagMs) {
        if (initialMax < 1 || targetLagMs < 1) {
            throw new PolicyDeclarationException("adaptiveConcurrency needs initialMax >= 1 and targetLagMs >= 1");
        }
        return new AdaptiveConcurrency(null, Param.constant(initialMax), Param.constant(targetLagMs),
                Param.constant(1), null);
    }

    /**
     * A calendar quota: at most {@code max} jobs admitted per partition in each {@code period} — a day, an ISO week,
     * a month — counted from the period's start at local midnight in UTC unless {@link Quota#in in} or
     * {@link Quota#inZoneOf inZoneOf} says which zone. The {@code max + 1}-th waits, with reason
     * {@code quota_exhausted}, until the next period starts; nothing carries over. A job of cost n counts n.
     */
    static Quota quota(int max, QuotaPeriod period) {
        if (max < 0) {
            throw new PolicyDeclarationException("quota max must be >= 0, was " + max);
        }
        return quota(Param.constant(max), period);
    }

    /** A calendar quota whose {@code max} comes from the partition's context (a tenant's plan). */
    static Quota quota(Param max, QuotaPeriod period) {
        if (max == null || period == null) {
            throw new PolicyDeclarationException("quota needs a max and a period (QuotaPeriod.DAY, WEEK or MONTH)");
        }
        return new Quota(null, max, period, "UTC", null);
    }

    private static double seconds(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new PolicyDeclarationException(what + " must be a positive duration, was " + d);
        }
        return d.toNanos() / 1e9;
    }

    record Throttle(String name, Param rate, Param perSeconds) implements Gate {
        @Override
        public String type() {
            return "throttle";
        }

        public Throttle named(String gateName) {
            return new Throttle(gateName, rate, perSeconds);
        }
    }

    record Concurrency(String name, Param max, Param fullBackoffSeconds) implements Gate {
        @Override
        public String type() {
            return "concurrency";
        }

        public Concurrency named(String gateName) {
            return new Concurrency(gateName, max, fullBackoffSeconds);
        }

        /** How long a full partition waits before it is checked again (default 1 s). */
        public Concurrency fullBackoff(Duration backoff) {
            return new Concurrency(name, max, Param.constant(seconds(backoff, "concurrency fullBackoff")));
        }
    }

    /** {@code max} is the optional ceiling; null means none. */
    record AdaptiveConcurrency(String name, Param initialMax, Param targetLagMs, Param min, Param max) implements Gate {
        @Override
        public String type() {
            return "adaptive-concurrency";
        }

        public AdaptiveConcurrency named(String gateName) {
            return new AdaptiveConcurrency(gateName, initialMax, targetLagMs, min, max);
        }

        /** Floor the cap never shrinks below (default 1). */
        public AdaptiveConcurrency min(int floor) {
            if (floor < 1) {
                throw new PolicyDeclarationException("adaptiveConcurrency min must be >= 1, was " + floor);
            }
            return new AdaptiveConcurrency(name, initialMax, targetLagMs, Param.constant(floor), max);
        }

        /** Ceiling the cap never grows above. */
        public AdaptiveConcurrency max(int ceiling) {
            if (ceiling < 1) {
                throw new PolicyDeclarationException("adaptiveConcurrency max must be >= 1, was " + ceiling);
            }
            return new AdaptiveConcurrency(name, initialMax, targetLagMs, min, Param.constant(ceiling));
        }
    }

    /**
     * A calendar quota ({@link Gate#quota}). {@code zone} is a zone id, or null when {@code zoneKey} names the
     * context value that holds the partition's zone id (a tenant's own zone).
     */
    record Quota(String name, Param max, QuotaPeriod period, String zone, String zoneKey) implements Gate {
        @Override
        public String type() {
            return "quota";
        }

        public Quota named(String gateName) {
            return new Quota(gateName, max, period, zone, zoneKey);
        }

        /** Periods start at local midnight in this zone (a region id such as {@code Europe/Berlin}, or {@code UTC}). */
        public Quota in(String zoneId) {
            try {
                return new Quota(name, max, period, java.time.ZoneId.of(zoneId).getId(), null);
            } catch (RuntimeException e) {
                throw new PolicyDeclarationException("quota zone '" + zoneId + "' is no zone id (" + e.getMessage() + ")");
            }
        }

        /**
         * Periods start at local midnight in the zone the partition's context holds under {@code contextKey} (a
         * tenant's zone). A partition whose context has no valid zone id there is not admitted: the console says
         * why, as for any gate parameter it cannot evaluate.
         */
        public Quota inZoneOf(String contextKey) {
            if (contextKey == null || contextKey.isBlank()) {
                throw new PolicyDeclarationException("quota inZoneOf needs the name of a context value");
            }
            return new Quota(name, max, period, null, contextKey);
        }
    }
}
