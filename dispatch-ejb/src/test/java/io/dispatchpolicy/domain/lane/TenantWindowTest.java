package io.dispatchpolicy.domain.lane;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class TenantWindowTest {

    // per bucket, newest first: 1, 2, ..., 10, after 45 submissions the ring no longer holds
    private static final long[] OLDER = older(45, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    private static final long TOTAL = 45 + 55;

    @Test
    void aWindowSumsTheBucketsThatStartInsideIt() {
        // one-second buckets, the statement 0.3 s into its bucket: a 3 s window starts 2.7 s before the
        // statement's bucket began, so the buckets 0, 1 and 2 s older start inside it; 3 s older straddles
        assertThat(new TenantWindow(1, TOTAL, OLDER, 0, 0.3).count(Duration.ofSeconds(3))).isEqualTo(1 + 2 + 3);
        // at the very start of a bucket, the window starts exactly 3 buckets back: that one is not after it
        assertThat(new TenantWindow(1, TOTAL, OLDER, 0, 0.0).count(Duration.ofSeconds(3))).isEqualTo(1 + 2 + 3);
        assertThat(new TenantWindow(1, TOTAL, OLDER, 0, 0.5).count(Duration.ofSeconds(60))).isEqualTo(55);
    }

    @Test
    void bucketsAheadOfTheStatementsOwnAreCounted() {
        // another submission, whose statement began 2 s later, moved the ring on: its buckets count too
        assertThat(new TenantWindow(1, TOTAL, OLDER, 2, 0.3).count(Duration.ofSeconds(3))).isEqualTo(1 + 2 + 3 + 4 + 5);
    }

    @Test
    void aWindowThatIsNotAWholeNumberOfBucketsCountsThoseStartingInsideIt() {
        // 90 s in one-minute buckets: 20 s into the bucket, the window reaches 70 s before its start, so
        // the bucket a minute older starts inside it; 40 s in, it reaches 50 s back and that one does not
        assertThat(new TenantWindow(60, TOTAL, OLDER, 0, 20).count(Duration.ofSeconds(90))).isEqualTo(1 + 2);
        assertThat(new TenantWindow(60, TOTAL, OLDER, 0, 40).count(Duration.ofSeconds(90))).isEqualTo(1);
    }

    @Test
    void aWindowLongerThanTheRingCountsWhatTheRingHolds() {
        assertThat(new TenantWindow(1, TOTAL, OLDER, 0, 0.5).count(Duration.ofSeconds(3600))).isEqualTo(55);
        assertThat(new TenantWindow(1, TOTAL, OLDER, 0, 0.5).count(Duration.ZERO)).as("no bucket starts inside it").isZero();
    }

    /** The cumulative ring of these per-bucket counts (newest first), with {@code before} submissions older than all of them. */
    private static long[] older(long before, int... counts) {
        long[] older = new long[counts.length];
        for (int i = counts.length - 1; i >= 0; i--) {
            older[i] = before;
            before += counts[i];
        }
        return older;
    }
}
