package io.dispatchpolicy.domain.lane;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Each lane's virtual time for a policy with lanes: admissions / weight, accumulated. A lane that had no work rejoins at the lowest time of the lanes
 * that have, so an idle spell earns it no burst later (start-time fair queueing's rule); a busy lane
 * never falls behind. Held per node: each node's split is exact, and nodes together stay close to it.
 */
public final class LaneClock {

    private final Map<String, Double> time = new HashMap<>();

    /** The time of each lane in {@code active}, after the idle ones among them have caught up. */
    public synchronized double[] times(String[] lanes, Set<String> active) {
        double floor = Double.POSITIVE_INFINITY;
        for (String lane : lanes) {
            if (active.contains(lane) && time.containsKey(lane)) {
                floor = Math.min(floor, time.get(lane));
            }
        }
        double[] times = new double[lanes.length];
        for (int i = 0; i < lanes.length; i++) {
            Double t = time.get(lanes[i]);
            if (active.contains(lanes[i])) {
                double caughtUp = t == null ? (floor == Double.POSITIVE_INFINITY ? 0 : floor) : t;
                time.put(lanes[i], caughtUp);
                times[i] = caughtUp;
            } else {
                times[i] = t == null ? 0 : t;
            }
        }
        return times;
    }

    /**
     * A lane admitted {@code n} jobs at {@code weight}. The only place a lane's time moves, and only
     * forward from a time it already has: a lane that admitted nothing keeps no time of its own (had it
     * been put back at 0 after {@link #idle}, it would rejoin far behind the busy lanes and take every
     * slot until it caught up — the burst this clock exists to prevent).
     */
    public synchronized void advance(String lane, int n, int weight) {
        if (n <= 0) {
            return;
        }
        time.merge(lane, n / (double) weight, Double::sum);
    }

    /** Lanes that had no work this iteration leave the clock's floor computation until they have again. */
    public synchronized void idle(String lane) {
        time.remove(lane);
    }
}
