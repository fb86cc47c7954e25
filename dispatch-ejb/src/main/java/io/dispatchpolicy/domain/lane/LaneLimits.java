package io.dispatchpolicy.domain.lane;

import io.dispatchpolicy.spi.Lane;

import java.util.List;
import java.util.Map;

/**
 * How far a lane's share of its policy's capacity may stretch (ADR 0047): the slots of its minimum it does not
 * lend stay free for it while it does not use them, and it goes at most its borrowing limit beyond its share.
 * One statement of the rule for both its users: the admission, which holds it under the capacity's lock
 * ({@link #room}), and the tick's sharing, which plans with it so that no lane is given what it may not take
 * ({@link #kept}, {@link #ceiling}).
 */
public final class LaneLimits {

    private LaneLimits() {
    }

    /** Whether any lane has a limit: only then does an admission count the policy's slots by lane. */
    public static boolean any(List<Lane> lanes) {
        return lanes.stream().anyMatch(Lane::limited);
    }

    /**
     * The slots of the capacity this lane keeps from the other lanes now: the part of its minimum it does not
     * lend, less what it has in flight (its own jobs fill its reserve first).
     */
    public static long kept(Lane lane, long inFlight) {
        return lane.lendingLimit() == null ? 0 : Math.max(0, lane.min() - lane.lendingLimit() - inFlight);
    }

    /**
     * The most this lane may have in flight: its share — its minimum, or its weight's part of the capacity
     * (rounded down), whichever is larger — plus its borrowing limit; {@link Long#MAX_VALUE} without one.
     */
    public static long ceiling(List<Lane> lanes, int capacity, Lane lane) {
        if (lane.borrowingLimit() == null) {
            return Long.MAX_VALUE;
        }
        int weights = lanes.stream().mapToInt(Lane::weight).sum();
        long share = Math.max(lane.min(), (long) capacity * lane.weight() / weights);
        return share + lane.borrowingLimit();
    }

    /**
     * What a job of {@code lane} may still take: the capacity's free slots less what the other lanes keep,
     * and no more than its ceiling leaves.
     *
     * @param inFlight the policy's slots in flight by lane, counted under the capacity's lock
     */
    public static long room(List<Lane> lanes, int capacity, Map<String, Long> inFlight, String lane) {
        long used = inFlight.values().stream().mapToLong(Long::longValue).sum();
        long free = capacity - used;
        long own = inFlight.getOrDefault(lane, 0L);
        long ceiling = Long.MAX_VALUE;
        for (Lane l : lanes) {
            if (l.name().equals(lane)) {
                ceiling = ceiling(lanes, capacity, l);
            } else {
                free -= kept(l, inFlight.getOrDefault(l.name(), 0L));
            }
        }
        return Math.min(free, ceiling == Long.MAX_VALUE ? Long.MAX_VALUE : ceiling - own);
    }
}
