package io.dispatchpolicy.domain.gate;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GatePipelineTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final ResolvedGate.Throttle TEN_PER_MINUTE = new ResolvedGate.Throttle("throttle", 10, 60);

    private static GatePipeline.Evaluation run(List<ResolvedGate> gates, Map<String, TokenBucket.State> buckets,
                                               long inFlight, long now, int wanted) {
        return GatePipeline.evaluate(gates, buckets, Map.of(), inFlight, now, wanted);
    }

    @Test
    void throttleTenPerMinuteAdmitsTenFromAFullBucketAndChargesThem() {
        GatePipeline.Evaluation e = run(List.of(TEN_PER_MINUTE), Map.of(), 0, T0, 100);
        assertThat(e.admit()).isEqualTo(10);
        assertThat(e.charged(10).get("throttle").tokens()).isZero();
    }

    @Test
    void aJobOfCostFourNeedsFourTokensAndFourFreeSlots() {
        // 100 tokens a minute: 25 jobs of cost 4 from a full bucket, then one every 2.4 s (ADR 0035)
        ResolvedGate.Throttle hundredPerMinute = new ResolvedGate.Throttle("throttle", 100, 60);
        GatePipeline.Evaluation full = GatePipeline.evaluate(List.of(hundredPerMinute), Map.of(), Map.of(), 0, T0, 1_000, 4);
        assertThat(full.admit()).isEqualTo(100);
        Map<String, TokenBucket.State> three = Map.of("throttle", new TokenBucket.State(3, T0));
        GatePipeline.Evaluation short1 = GatePipeline.evaluate(List.of(hundredPerMinute), three, Map.of(), 0, T0, 1_000, 4);
        assertThat(short1.admit()).as("3 tokens, a job needs 4").isZero();
        assertThat(short1.reason()).isEqualTo(TokenBucket.EMPTY);
        assertThat(short1.retryAfter()).as("one more token at 100 a minute").isEqualTo(Duration.ofMillis(600));
        assertThat(full.charged(4 * 25).get("throttle").tokens()).isZero();

        ResolvedGate.Concurrency ten = new ResolvedGate.Concurrency("concurrency", 10, Duration.ofSeconds(2));
        assertThat(GatePipeline.evaluate(List.of(ten), Map.of(), Map.of(), 6, T0, 1_000, 4).admit()).as("4 of 10 free").isEqualTo(4);
        GatePipeline.Evaluation full8 = GatePipeline.evaluate(List.of(ten), Map.of(), Map.of(), 8, T0, 1_000, 4);
        assertThat(full8.admit()).as("2 of 10 free, a job needs 4").isZero();
        assertThat(full8.reason()).isEqualTo(ConcurrencyCap.FULL);
        assertThat(full8.retryAfter()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void onlyAdmittedJobsAreCharged() {
        GatePipeline.Evaluation e = run(List.of(TEN_PER_MINUTE), Map.of(), 0, T0, 3);
        assertThat(e.admit()).isEqualTo(3);
        assertThat(e.charged(3).get("throttle").tokens()).isEqualTo(7.0);
        // a later gate or fewer pending jobs admitted only 1: only 1 is charged
        assertThat(e.charged(1).get("throttle").tokens()).isEqualTo(9.0);
    }

    @Test
    void emptyBucketDeniesUntilOneTokenAndRefillsLazily() {
        Map<String, TokenBucket.State> empty = Map.of("throttle", new TokenBucket.State(0, T0));
        GatePipeline.Evaluation denied = run(List.of(TEN_PER_MINUTE), empty, 0, T0, 100);
        assertThat(denied.admit()).isZero();
        assertThat(denied.reason()).isEqualTo(TokenBucket.EMPTY);
        assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(6));

        GatePipeline.Evaluation later = run(List.of(TEN_PER_MINUTE), empty, 0, T0 + 30_000, 100);
        assertThat(later.admit()).isEqualTo(5);
    }

    @Test
    void fractionalRatesWork() {
        ResolvedGate.Throttle halfPerSecond = new ResolvedGate.Throttle("throttle", 0.5, 1);
        GatePipeline.Evaluation first = run(List.of(halfPerSecond), Map.of(), 0, T0, 10);
        assertThat(first.admit()).isEqualTo(1);
        Map<String, TokenBucket.State> after = first.charged(1);
        assertThat(run(List.of(halfPerSecond), after, 0, T0 + 1_000, 10).admit()).isZero();
        assertThat(run(List.of(halfPerSecond), after, 0, T0 + 2_000, 10).admit()).isEqualTo(1);

        ResolvedGate.Throttle twoAndAHalf = new ResolvedGate.Throttle("throttle", 2.5, 1);
        GatePipeline.Evaluation e = run(List.of(twoAndAHalf), Map.of(), 0, T0, 10);
        assertThat(e.admit()).isEqualTo(2);
        assertThat(e.charged(2).get("throttle").tokens()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void aZeroRateDeniesWithABackoffInsteadOfEveryTick() {
        GatePipeline.Evaluation e = run(List.of(new ResolvedGate.Throttle("throttle", 0, 60)), Map.of(), 0, T0, 10);
        assertThat(e.admit()).isZero();
        assertThat(e.retryAfter()).isEqualTo(TokenBucket.DISABLED_BACKOFF);
    }

    @Test
    void concurrencyAllowsTheFreeSlots() {
        ResolvedGate.Concurrency five = new ResolvedGate.Concurrency("concurrency", 5, Duration.ofSeconds(1));
        assertThat(run(List.of(five), Map.of(), 2, T0, 100).admit()).isEqualTo(3);
        GatePipeline.Evaluation full = run(List.of(five), Map.of(), 5, T0, 100);
        assertThat(full.admit()).isZero();
        assertThat(full.reason()).isEqualTo(ConcurrencyCap.FULL);
        assertThat(full.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void admitCountIsTheSmallestAllowed() {
        ResolvedGate.Concurrency four = new ResolvedGate.Concurrency("concurrency", 4, Duration.ofSeconds(1));
        assertThat(run(List.of(TEN_PER_MINUTE, four), Map.of(), 0, T0, 100).admit()).isEqualTo(4);
        assertThat(run(List.of(four, TEN_PER_MINUTE), Map.of(), 0, T0, 100).admit()).isEqualTo(4);
    }

    @Test
    void retryAfterIsTheSmallestAnyDenyingGateAskedFor() {
        // throttle 1 per 3 s, empty: 3 s to the next token; concurrency full with a 7 s backoff
        ResolvedGate.Throttle slow = new ResolvedGate.Throttle("throttle", 1, 3);
        ResolvedGate.Concurrency full = new ResolvedGate.Concurrency("concurrency", 1, Duration.ofSeconds(7));
        Map<String, TokenBucket.State> empty = Map.of("throttle", new TokenBucket.State(0, T0));
        GatePipeline.Evaluation e = run(List.of(full, slow), empty, 1, T0, 10);
        assertThat(e.admit()).isZero();
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(3));
        assertThat(e.reason()).isEqualTo(TokenBucket.EMPTY);
    }

    @Test
    void twoGatesOfOneTypeKeepSeparateState() {
        ResolvedGate.Throttle perMinute = new ResolvedGate.Throttle("throttle", 10, 60);
        ResolvedGate.Throttle perHour = new ResolvedGate.Throttle("throttle-2", 15, 3600);
        GatePipeline.Evaluation first = run(List.of(perMinute, perHour), Map.of(), 0, T0, 100);
        assertThat(first.admit()).isEqualTo(10);
        Map<String, TokenBucket.State> after = first.charged(10);
        assertThat(after.get("throttle").tokens()).isZero();
        assertThat(after.get("throttle-2").tokens()).isEqualTo(5.0);
        // a minute later the per-minute bucket is full again, the hourly one has barely refilled
        assertThat(run(List.of(perMinute, perHour), after, 0, T0 + 60_000, 100).admit()).isEqualTo(5);
    }
}
