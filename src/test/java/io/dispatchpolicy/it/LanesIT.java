package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Lanes (ADR 0011): weighted shares of a policy's capacity, an empty lane lending its share, a
 * guaranteed minimum reclaimed as borrowed slots free, gates that hold per key across lanes, and the
 * lane a submission names.
 */
class LanesIT extends EngineTest {

    private static SubmitOption[] in(String lane) {
        return new SubmitOption[] {SubmitOption.lane(lane)};
    }

    private long inFlight(String policy, String lane) {
        return db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = ? AND lane = ?", policy, lane);
    }

    private long inFlight(String policy) {
        return db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = ?", policy);
    }

    private String denyReason(String policy, String key, String lane) {
        return db.strings("SELECT last_deny_reason FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ? AND lane = ?",
                policy, key, lane).get(0);
    }

    private void awaitNothingInFlight(String policy) {
        await().atMost(Duration.ofSeconds(90)).until(() -> inFlight(policy) == 0);
    }

    /** The first {@code n} admissions of the policy that match {@code after} (one parameter), counted by lane. */
    private Map<String, Long> firstAdmissionsByLane(String policy, String after, long value, int n) {
        Map<String, Long> byLane = new HashMap<>();
        for (String row : db.strings("SELECT lane || ' ' || count(*) FROM (SELECT p.lane FROM dispatch.admissions a "
                + "JOIN dispatch.partitions p ON p.id = a.partition_id WHERE p.policy_name = ? AND " + after + " "
                + "ORDER BY a.admitted_at, a.submission_id LIMIT ?) x GROUP BY lane", policy, value, n)) {
            String[] parts = row.split(" ");
            byLane.put(parts[0], Long.parseLong(parts[1]));
        }
        return byLane;
    }

    /**
     * Iterates until {@code admissions} jobs of the policy are admitted; each iteration must admit at
     * least what was free before it (in flight only falls between the count and the iteration's own).
     */
    private void iterateSaturated(String policy, int capacity, int admissions) {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        int total = 0;
        while (total < admissions && System.nanoTime() < deadline) {
            long before = inFlight(policy);
            int admitted = ticks.iterate().admitted();
            assertThat(admitted).as("admitted with %d of %d in flight before the iteration", before, capacity)
                    .isGreaterThanOrEqualTo((int) (capacity - before));
            total += admitted;
        }
        assertThat(total).isGreaterThanOrEqualTo(admissions);
    }

    @Test
    void saturatedLanesShareTheCapacitySixThreeOne() {
        awaitNothingInFlight("it-lanes");
        // by the database's clock, not by submission id: ids come from a sequence each connection caches 50 of, so a
        // job staged now may have a lower id than one admitted before
        long since = db.count("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
        for (int t = 0; t < 4; t++) {
            stage("it-lanes", "c" + t, 175, in("critical"), "sleepMs", "40");
            stage("it-lanes", "d" + t, 100, in("default"), "sleepMs", "40");
            stage("it-lanes", "b" + t, 50, in("bulk"), "sleepMs", "40");
        }
        iterateSaturated("it-lanes", 10, 1_000);
        Map<String, Long> byLane = admissionsByLaneAfter("it-lanes", since, 1_000);
        assertThat(byLane.get("critical")).as("%s", byLane).isBetween(580L, 620L);
        assertThat(byLane.get("default")).as("%s", byLane).isBetween(280L, 320L);
        assertThat(byLane.get("bulk")).as("%s", byLane).isBetween(80L, 120L);
    }

    /** The first {@code n} admissions of the policy after {@code afterMillis} (the database's clock), counted by lane. */
    private Map<String, Long> admissionsByLaneAfter(String policy, long afterMillis, int n) {
        return firstAdmissionsByLane(policy, "a.admitted_at > to_timestamp(? / 1000.0)", afterMillis, n);
    }

    @Test
    void aLaneBackFromIdleRejoinsLevelWithTheBusyLanesWithoutABurst() {
        awaitNothingInFlight("it-lanes");
        for (int t = 0; t < 4; t++) {
            stage("it-lanes", "ic" + t, 200, in("critical"), "sleepMs", "40");
            stage("it-lanes", "id" + t, 100, in("default"), "sleepMs", "40");
        }
        iterateSaturated("it-lanes", 10, 900);
        long joined = db.count("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
        for (int t = 0; t < 4; t++) {
            stage("it-lanes", "ib" + t, 50, in("bulk"), "sleepMs", "40");
        }
        iterateSaturated("it-lanes", 10, 100);
        Map<String, Long> firstTen = admissionsByLaneAfter("it-lanes", joined, 10);
        Map<String, Long> firstHundred = admissionsByLaneAfter("it-lanes", joined, 100);
        assertThat(firstTen.getOrDefault("bulk", 0L)).as("bulk in the first 10 after it rejoined: %s", firstTen).isBetween(0L, 2L);
        assertThat(firstHundred.getOrDefault("bulk", 0L)).as("bulk in the first 100: %s", firstHundred).isBetween(8L, 12L);
    }

    @Test
    void anEmptyLaneLendsItsShareAndNoSlotIdles() {
        awaitNothingInFlight("it-lanes");
        // by the database's clock, not by submission id: ids come from a sequence each connection caches 50 of, so a
        // job staged now may have a lower id than one admitted before
        long since = db.count("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
        for (int t = 0; t < 4; t++) {
            stage("it-lanes", "c" + t, 175, in("critical"), "sleepMs", "40");
            stage("it-lanes", "b" + t, 50, in("bulk"), "sleepMs", "40");
        }
        iterateSaturated("it-lanes", 10, 700);
        Map<String, Long> byLane = admissionsByLaneAfter("it-lanes", since, 700);
        assertThat(byLane).as("%s", byLane).doesNotContainKey("default");
        // 6 : 1 within 2 % (the drift full runs measured, 616 : 84, came from an iteration that counted again for
        // seconds with 40 ms jobs: LaneRound now refills at most one capacity's worth per iteration)
        assertThat(byLane.get("critical")).as("%s", byLane).isBetween(586L, 614L);
        assertThat(byLane.get("bulk")).as("%s", byLane).isBetween(86L, 114L);
    }

    @Test
    void aGuaranteedMinimumIsReclaimedAsBorrowedSlotsFree() {
        awaitNothingInFlight("it-lanes-min");
        stage("it-lanes-min", "busy", 300, in("b"), "sleepMs", "500");
        ticks.iterate();
        assertThat(inFlight("it-lanes-min", "b")).as("b borrows a's reserve while a has no work").isEqualTo(10);

        stage("it-lanes-min", "small", 5, in("a"), "sleepMs", "4000");
        ticks.iterate();
        assertThat(inFlight("it-lanes-min")).as("nothing is preempted, nothing exceeds the capacity").isLessThanOrEqualTo(10);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (inFlight("it-lanes-min", "a") < 3 && System.nanoTime() < deadline) {
            ticks.iterate();
        }
        assertThat(inFlight("it-lanes-min", "a")).as("a reclaimed its three as b's jobs ended").isEqualTo(3);
        // a's jobs run for 4 s: while it has work, it never has fewer than its three (beyond them it gets
        // its weight's share of what frees), and the capacity holds
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        List<Long> aSamples = new ArrayList<>();
        while (System.nanoTime() < until) {
            ticks.iterate();
            aSamples.add(inFlight("it-lanes-min", "a"));
            assertThat(inFlight("it-lanes-min")).isLessThanOrEqualTo(10);
        }
        assertThat(aSamples).isNotEmpty().allMatch(a -> a >= 3);
    }

    /**
     * Lane b of the policy, with 300 jobs of 500 ms and lane a idle, sampled for 2 s of iterations: never above 7 in
     * flight, 7 reached, and denied lane_limit meanwhile (the capacity had room, not for b).
     */
    private void bAtMostSevenWhileAIdles(String policy, String why) {
        awaitNothingInFlight(policy);
        stage(policy, "busy", 300, in("b"), "sleepMs", "500");
        List<Long> bSamples = new ArrayList<>();
        java.util.Set<String> reasons = new java.util.HashSet<>();
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < until) {
            ticks.iterate();
            bSamples.add(inFlight(policy, "b"));
            reasons.add(String.valueOf(denyReason(policy, "busy", "b")));
        }
        assertThat(bSamples).as(why).allMatch(b -> b <= 7).contains(7L);
        assertThat(reasons).as("b waited with the capacity's room kept from it").contains("lane_limit");
    }

    @Test
    void aLaneOfMinimumFourLendingOneNeverHasFewerThanThreeSlotsAvailableWhileItHasWork() {
        bAtMostSevenWhileAIdles("it-lanes-lend", "b borrows the one slot a lends, never the three it keeps");

        stage("it-lanes-lend", "small", 5, in("a"), "sleepMs", "3000");
        ticks.iterate();
        // its three kept slots at once (a fourth too if one of b's jobs ended meanwhile: its min is 4)
        assertThat(inFlight("it-lanes-lend", "a")).as("a's work finds its three slots free at once").isBetween(3L, 4L);
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        List<Long> available = new ArrayList<>();
        while (System.nanoTime() < until) {
            ticks.iterate();
            available.add(10 - inFlight("it-lanes-lend", "b"));
            assertThat(inFlight("it-lanes-lend")).isLessThanOrEqualTo(10);
        }
        assertThat(available).as("slots available to a while it has work").isNotEmpty().allMatch(a -> a >= 3);
        assertThat(inFlight("it-lanes-lend", "a")).as("and it reclaims its fourth as b's jobs end").isEqualTo(4);
    }

    @Test
    void aLaneBorrowsAtMostItsLimitBeyondItsShareAndTheRestStaysFree() {
        bAtMostSevenWhileAIdles("it-lanes-borrow", "its share 5 and 2 borrowed, with a idle");

        stage("it-lanes-borrow", "small", 5, in("a"), "sleepMs", "3000");
        ticks.iterate();
        assertThat(inFlight("it-lanes-borrow", "a")).as("the three b could not borrow are a's at once").isGreaterThanOrEqualTo(3L);
    }

    @Test
    void aKeysGatesHoldAcrossItsLanes() {
        awaitNothingInFlight("it-lanes-gate");
        stage("it-lanes-gate", "t", 5, in("a"), "sleepMs", "3000");
        stage("it-lanes-gate", "t", 5, in("b"), "sleepMs", "3000");
        ticks.iterate();
        ticks.iterate();
        assertThat(inFlight("it-lanes-gate")).as("concurrency 2 for tenant t, whatever the lane").isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = 'it-lanes-gate' AND partition_key = 't'"))
                .as("the gate row and one row per lane").isEqualTo(3);
    }

    @Test
    void aSubmissionGoesToTheLaneItNamesOrTheDefaultAndAnUnknownLaneIsRefused() {
        stage("it-lanes", "named", 1, in("bulk"));
        stage("it-lanes", "named", 1);
        assertThat(db.strings("SELECT lane FROM dispatch.partitions WHERE policy_name = 'it-lanes' AND partition_key = 'named' "
                + "AND pending_count > 0 ORDER BY lane")).containsExactly("bulk", "default");

        assertThatThrownBy(() -> stage("it-lanes", "named", 1, in("urgent")))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("no lane 'urgent'");
        assertThatThrownBy(() -> stage("it-cap3", "named", 1, in("bulk")))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("has no lanes");

        set("dispatch.policy.it-lanes.lanes", "critical:1,bulk:1");
        stage("it-lanes", "configured", 1);
        assertThat(db.strings("SELECT lane FROM dispatch.partitions WHERE policy_name = 'it-lanes' AND partition_key = 'configured' "
                + "AND lane <> ''")).containsExactly("critical");
        assertThatThrownBy(() -> stage("it-lanes", "configured", 1, in("default")))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("no lane 'default'");
    }

    @Test
    void aRetryWaitsInTheLaneItsPolicySendsRetriesTo() {
        long id = stage("it-lanes-retry", "r", 1, "fail", "true")[0];
        assertThat(db.strings("SELECT p.lane FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE s.id = ?", id)).containsExactly("main");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", id) == 1;
        });
        assertThat(db.strings("SELECT p.lane || ' ' || d.attempts FROM dispatch.dead_jobs d JOIN dispatch.partitions p "
                + "ON p.id = d.partition_id WHERE d.submission_id = ?", id)).as("the retry ran from lane retries").containsExactly("retries 2");
    }
}
