package io.dispatchpolicy.it;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** Each gate's exact arithmetic, through the real tick and admission transaction. */
class GatesIT extends EngineTest {

    private double tokens(String policy, String key, String gate) {
        return Double.parseDouble(column("gate_state->'" + gate + "'->>'tokens'", policy, key));
    }

    @Test
    void throttleTenPerMinuteAdmitsTenThenWaitsForATokenAndRefillsWithTime() {
        stage("it-throttle", "t1", 100);

        ticks.iterate();
        assertThat(admitted("it-throttle", "t1")).isEqualTo(10);
        assertThat(tokens("it-throttle", "t1", "throttle")).isCloseTo(0.0, within(1e-9));

        ticks.iterate();
        assertThat(admitted("it-throttle", "t1")).isEqualTo(10);
        assertThat(column("last_deny_reason", "it-throttle", "t1")).isEqualTo("throttle_empty");
        assertThat(secondsUntilEligible("it-throttle", "t1")).isBetween(5.0, 6.0);

        // 30 seconds later: the bucket's clock moved back 30 s, and the backoff lifted
        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL, gate_state = jsonb_set(gate_state, "
                + "'{throttle,at}', to_jsonb((gate_state->'throttle'->>'at')::bigint - 30000)) "
                + "WHERE policy_name = 'it-throttle' AND partition_key = 't1'");
        ticks.iterate();
        assertThat(admitted("it-throttle", "t1")).isEqualTo(15);
    }

    @Test
    void aTickBudgetAdmitsThreeAndChargesOnlyThose() {
        set("dispatch.policy.it-throttle.tick-admission-budget", "3");
        stage("it-throttle", "b1", 100);
        ticks.iterate();
        assertThat(admitted("it-throttle", "b1")).isEqualTo(3);
        assertThat(tokens("it-throttle", "b1", "throttle")).isCloseTo(7.0, within(1e-6));
    }

    @Test
    void tokensAreNotBurntWhenFewerJobsArePendingOrALaterGateDenies() {
        stage("it-throttle", "few", 3);
        ticks.iterate();
        assertThat(admitted("it-throttle", "few")).isEqualTo(3);
        assertThat(tokens("it-throttle", "few", "throttle")).isCloseTo(7.0, within(1e-6));

        stage("it-mixed", "full", 5);
        occupySlots("it-mixed", "full", 4);
        ticks.iterate();
        assertThat(admitted("it-mixed", "full")).isZero();
        assertThat(column("last_deny_reason", "it-mixed", "full")).isEqualTo("concurrency_full");
        assertThat(column("gate_state->'throttle'", "it-mixed", "full")).isNull();
        freeSlots("it-mixed", "full");
    }

    @Test
    void concurrencyAdmitsTheFreeSlotsAndBacksOffWhenFull() {
        stage("it-conc", "c1", 20);
        occupySlots("it-conc", "c1", 2);
        ticks.iterate();
        assertThat(admitted("it-conc", "c1")).isEqualTo(3);

        stage("it-conc", "c2", 20);
        occupySlots("it-conc", "c2", 5);
        ticks.iterate();
        assertThat(admitted("it-conc", "c2")).isZero();
        assertThat(column("last_deny_reason", "it-conc", "c2")).isEqualTo("concurrency_full");
        assertThat(secondsUntilEligible("it-conc", "c2")).isBetween(0.5, 1.0);
        freeSlots("it-conc", "c1");
        freeSlots("it-conc", "c2");
    }

    @Test
    void anAdmissionThatFillsTheSlotsBacksOffInItsOwnTransactionSoTheEndOfItsJobWakesThePartition() {
        // it-refill: one slot, a 60 s full-backoff
        stage("it-refill", "fill", 2, "sleepMs", "300");
        ticks.iterate();
        assertThat(admitted("it-refill", "fill")).isEqualTo(1);
        // backed off by the admission itself, not by a later denial: had the backoff been written after the
        // job ended, nothing would have woken the partition for a minute
        assertThat(column("last_deny_reason", "it-refill", "fill")).isEqualTo("concurrency_full");
        assertThat(secondsUntilEligible("it-refill", "fill")).isBetween(50.0, 60.0);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> secondsUntilEligible("it-refill", "fill") == null);
        ticks.iterate();
        assertThat(admitted("it-refill", "fill")).as("the freed slot is refilled at once").isEqualTo(2);
        await().atMost(Duration.ofSeconds(30)).until(() -> db.completedExecutions("it-refill") >= 2);
    }

    @Test
    void theSmallestAllowanceWinsAndTheSmallestRetryAfterIsKept() {
        stage("it-mixed", "x1", 20);
        ticks.iterate();
        assertThat(admitted("it-mixed", "x1")).isEqualTo(4);

        // throttle 1 per 3 s (empty: 3 s to a token) and concurrency full with a 7 s backoff
        set("dispatch.policy.it-mixed.gate.throttle.rate", "1");
        set("dispatch.policy.it-mixed.gate.throttle.per", "3");
        set("dispatch.policy.it-mixed.gate.concurrency.full-backoff", "7");
        stage("it-mixed", "x2", 5);
        db.update("UPDATE dispatch.partitions SET gate_state = jsonb_build_object('throttle', jsonb_build_object("
                + "'tokens', 0, 'at', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)) "
                + "WHERE policy_name = 'it-mixed' AND partition_key = 'x2'");
        occupySlots("it-mixed", "x2", 4);
        ticks.iterate();
        assertThat(admitted("it-mixed", "x2")).isZero();
        assertThat(column("last_deny_reason", "it-mixed", "x2")).isEqualTo("throttle_empty");
        assertThat(secondsUntilEligible("it-mixed", "x2")).isBetween(2.0, 3.0);
        freeSlots("it-mixed", "x2");
    }

    @Test
    void adaptiveStartsAtInitialMaxGrowsOnFastSuccessAndHalvesOnFailure() {
        stage("it-adaptive", "a1", 20);
        ticks.iterate();
        assertThat(admitted("it-adaptive", "a1")).isEqualTo(6);
        long a1 = partitionId("it-adaptive", "a1");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                db.count("SELECT observations FROM dispatch.adaptive_stats WHERE partition_id = ?", a1) == 6);
        assertThat(db.count("SELECT current_max FROM dispatch.adaptive_stats WHERE partition_id = ?", a1)).isEqualTo(12);

        stage("it-adaptive", "a2", 1, "fail", "true");
        ticks.iterate();
        long a2 = partitionId("it-adaptive", "a2");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                db.count("SELECT observations FROM dispatch.adaptive_stats WHERE partition_id = ?", a2) == 1);
        assertThat(db.count("SELECT current_max FROM dispatch.adaptive_stats WHERE partition_id = ?", a2)).isEqualTo(3);
        assertThat(db.count("SELECT consecutive_failures FROM dispatch.adaptive_stats WHERE partition_id = ?", a2)).isEqualTo(1);
    }

    @Test
    void twoGatesOfOneTypeKeepSeparateState() {
        stage("it-two-throttles", "tt", 100);
        ticks.iterate();
        assertThat(admitted("it-two-throttles", "tt")).isEqualTo(10);
        assertThat(tokens("it-two-throttles", "tt", "throttle")).isCloseTo(0.0, within(1e-6));
        assertThat(tokens("it-two-throttles", "tt", "throttle-2")).isCloseTo(5.0, within(1e-3));
    }
}
