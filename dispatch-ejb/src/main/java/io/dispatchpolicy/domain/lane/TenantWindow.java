package io.dispatchpolicy.domain.lane;

import java.time.Duration;

/**
 * A tenant's ring of submission counts at one resolution, as a counting statement left it (ADR 0011), and
 * the sliding-window counts read from it. The ring is cumulative: it holds, per bucket, the submissions
 * counted before that bucket began, so the newest k buckets hold {@code total - older[k - 1]}.
 *
 * @param resolutionSeconds the length of a bucket
 * @param total             every submission counted for the tenant at this resolution
 * @param older             older[0] = submissions before the newest bucket began, older[i] before the
 *                          bucket i older than it
 * @param ahead             how many buckets the newest is ahead of the bucket of the statement that read
 *                          it (more than 0 when a submission whose statement began later moved it on)
 * @param intoBucket        seconds from the start of the statement's bucket to the statement's time
 */
public record TenantWindow(int resolutionSeconds, long total, long[] older, long ahead, double intoBucket) {

    /**
     * The submissions in a window ending at the statement's time: the buckets that start inside it, from
     * the newest back. The bucket that straddles the window's start is left out, so the count misses at
     * most one bucket's worth of the oldest submissions, and never holds one older than the window.
     * The console's demoted tenants are read from the same buckets in SQL (DemotedTenants).
     */
    public int count(Duration per) {
        // buckets of the statement's own and older that start after (time - per): k of them, where the
        // statement's time is intoBucket into the first
        long inside = (long) Math.ceil((per.toSeconds() - intoBucket) / resolutionSeconds);
        long buckets = Math.min(older.length, ahead + inside);
        return buckets <= 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, total - older[(int) buckets - 1]);
    }
}
