package io.dispatchpolicy.spi;

/**
 * At most {@code max} jobs staged per partition (ADR 0036) — waiting, scheduled and parked together, a lane
 * of a key being a partition of its own — and what happens to a submission that would pass it.
 *
 * @param max      the cap, at least 1
 * @param overflow what a submission to a full partition does
 */
public record BacklogCap(int max, Overflow overflow) {

    /** The highest cap. */
    public static final int MAX = 100_000_000;

    /** What a submission that finds its partition at the cap does. */
    public enum Overflow {
        /** refused ({@code SubmissionRejectedException} naming the partition and the cap): the call stages nothing */
        REJECT,
        /** staged; the partition's oldest staged job is discarded (recorded as dropped) */
        DROP_OLDEST,
        /** staged; every staged job of the partition is discarded (recorded as replaced): the newest replaces them */
        KEEP_NEWEST;

        /** The name standalone.xml uses: {@code reject}, {@code drop-oldest}, {@code keep-newest}. */
        public String setting() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public BacklogCap {
        if (max < 1 || max > MAX) {
            throw new IllegalArgumentException("a backlog cap must be at least 1 and at most " + MAX + ", was " + max);
        }
        if (overflow == null) {
            throw new IllegalArgumentException("a backlog cap needs its overflow: reject, drop-oldest or keep-newest");
        }
    }
}
