package io.dispatchpolicy.domain.lane;

import java.time.Duration;

/**
 * A tenant's ring of submission counts at one resolution, as a counting statement left it (ADR 0011), and
 * the sliding-window sums read from it.
 *
 * @param resolutionSeconds the length of a bucket
 * @param counts            counts[0] is the newest bucket, counts[i] the bucket i older
 * @param ahead             how many buckets the newest is ahead of the bucket of the statement that read
 *                          it (more than 0 when a submission whose statement began later moved it on)
 * @param intoBucket        seconds from the start of the statement's bucket to the statement's time
 */
public record TenantWindow(int resolutionSeconds, int[] counts, long ahead, double intoBucket) {

    /**
     * The submissions in a window ending at the statement's time: the buckets that start inside it, from
     * the newest back. The bucket that straddles the window's start is left out, so the count misses at
     * most one bucket's worth of the oldest submissions, and never holds one older than the window.
     */
    public int count(Duration per) {
        // buckets of the statement's own and older that start after (time - per): k of them, where the
        // statement's time is intoBucket into the first
        long inside = (long) Math.ceil((per.toSeconds() - intoBucket) / resolutionSeconds);
        long last = Math.min(counts.length, ahead + inside);
        int sum = 0;
        for (int i = 0; i < last; i++) {
            sum += counts[i];
        }
        return sum;
    }
}
