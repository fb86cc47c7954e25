package io.dispatchpolicy.domain.lane;

/**
 * How many of an iteration's free slots (or tick budget) each lane of a policy gets: first each lane
 * with work that is below its guaranteed minimum is filled up to it, then the rest goes one slot at
 * a time to the lane with the lowest {@code base + given / weight} among lanes that still want more
 * (ties to the lane declared first) — stride scheduling, deterministic, so the split is exact.
 *
 * <p>{@code base} is what a lane has had so far per unit of weight: the engine passes each lane's
 * virtual time from {@link LaneClock} (admissions / weight). Sharing by jobs in flight instead would
 * stall on integer slots: with 10 slots and weights 6 : 1, in-flight 8 : 2 is stable (each freed slot
 * goes back to the lane that freed it) and the split stays 80 : 20, not 86 : 14. A lane with no work
 * wants nothing and gets nothing: its share, minimum included, goes to the others (work-conserving).
 */
public final class LaneShares {

    private LaneShares() {
    }

    /**
     * @param free     slots to share (at least 0)
     * @param weight   per lane, at least 1
     * @param min      per lane, slots guaranteed while it has work
     * @param inFlight per lane, its jobs in flight now (counted against its minimum)
     * @param wanting  per lane, at most this many it could take now; 0 when it has no admissible work
     * @param base     per lane, what it already has per unit of weight
     * @return per lane, its slots; their sum is at most {@code free} and at most the sum of {@code wanting}
     */
    public static int[] share(int free, int[] weight, int[] min, long[] inFlight, int[] wanting, double[] base) {
        return share(free, weight, min, inFlight, wanting, base, new long[weight.length], null);
    }

    /**
     * As {@link #share(int, int[], int[], long[], int[], double[])}, within the lanes' lending and borrowing limits
     * (ADR 0047, {@link LaneLimits}): what a lane keeps of its minimum is given to no other lane, and no lane is
     * given more than its ceiling leaves it.
     *
     * @param kept    per lane, slots it keeps from the others now ({@link LaneLimits#kept}); its own share fills them
     * @param ceiling per lane, the most it may have in flight ({@link LaneLimits#ceiling}); null: no ceilings
     */
    public static int[] share(int free, int[] weight, int[] min, long[] inFlight, int[] wanting0, double[] base, long[] kept,
                              long[] ceiling) {
        int n = weight.length;
        int[] wanting = wanting0.clone();
        if (ceiling != null) {
            for (int i = 0; i < n; i++) {
                wanting[i] = (int) Math.max(0, Math.min(wanting[i], ceiling[i] - inFlight[i]));
            }
        }
        int[] given = new int[n];
        int left = Math.max(0, free);
        for (int i = 0; i < n && left > 0; i++) {
            if (wanting[i] > 0 && inFlight[i] < min[i]) {
                int reserved = (int) Math.min(Math.min(min[i] - inFlight[i], wanting[i]), left);
                given[i] += reserved;
                left -= reserved;
            }
        }
        long held = 0;
        for (int i = 0; i < n; i++) {
            held += Math.max(0, kept[i] - given[i]);
        }
        left = (int) Math.max(0, left - held);
        while (left > 0) {
            int next = -1;
            double lowest = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (given[i] < wanting[i]) {
                    double metric = base[i] + given[i] / (double) weight[i];
                    if (metric < lowest) {
                        lowest = metric;
                        next = i;
                    }
                }
            }
            if (next < 0) {
                break;
            }
            given[next]++;
            left--;
        }
        return given;
    }
}
