package io.dispatchpolicy.it;

import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.monitoring.DenialRow;
import io.dispatchpolicy.console.monitoring.HistoryPoint;
import io.dispatchpolicy.console.monitoring.KeyCount;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PartitionDetail;
import io.dispatchpolicy.console.monitoring.PartitionQuery;
import io.dispatchpolicy.console.monitoring.PolicySummary;
import io.dispatchpolicy.console.monitoring.Summary;
import io.dispatchpolicy.console.monitoring.TopPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.observe.HistoryRecorder;
import io.dispatchpolicy.tick.TickTransactions;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** The console's queries against seeded data: counts, denial breakdown, drain time, browsing, actions. */
class MonitoringIT extends EngineTest {

    @Inject
    TickTransactions tick;

    @Inject
    HistoryRecorder history;

    @Inject
    Monitoring monitoring;

    @Inject
    PolicyControl policyControl;

    @Inject
    PartitionControl partitionControl;

    private static long reasonCount(List<KeyCount> reasons, String reason) {
        return reasons.stream().filter(k -> k.key().equals(reason)).mapToLong(KeyCount::count).sum();
    }

    private static long reasonCount(Summary s, String reason) {
        return reasonCount(s.denialReasons(), reason);
    }

    @Test
    void summaryCountsThroughputDenialsAndDrainTime() {
        Summary before = monitoring.summary();
        stage("it-fair", "m-1", 30);
        stage("it-fair", "m-2", 10);
        // a tick that admitted 1,800 jobs two minutes ago and denied 4 partitions for throttle, 2 for budget
        db.update("INSERT INTO dispatch.tick_samples (node_id, started_at, duration_ms, busy_ms, iterations, claimed, "
                + "admitted, denied, pending, in_flight, completed, failed) VALUES (gen_random_uuid(), now() - interval "
                + "'2 minutes', 5000, 4500, 10, 40, 1800, '{\"throttle_empty\": 4, \"tick_cap_exhausted\": 2}', 40, 0, 200, 4)");

        Summary s = monitoring.summary();
        assertThat(s.pending() - before.pending()).isEqualTo(40);
        assertThat(s.admittedPerSecond5m() - before.admittedPerSecond5m()).isCloseTo(6.0, within(1e-9));
        assertThat(s.admittedPerSecond15m() - before.admittedPerSecond15m()).isCloseTo(2.0, within(1e-9));
        assertThat(reasonCount(s, "throttle_empty") - reasonCount(before, "throttle_empty")).isEqualTo(4);
        assertThat(reasonCount(s, "tick_cap_exhausted") - reasonCount(before, "tick_cap_exhausted")).isEqualTo(2);
        assertThat(s.drainMinutes()).isCloseTo(s.pending() / s.admittedPerSecond5m() / 60.0, within(1e-9));
        assertThat(s.failureRate()).isGreaterThan(0);
        assertThat(s.pendingTrend()).isNotEmpty();
    }

    /**
     * Issue 37: the dashboard's "partitions denied now", its reasons, a policy's "waiting on" and the Denials page's
     * "denied now" are one set — including a partition denied long ago that waits an hour, whose episode is older than
     * any window — and an undeployed application's partitions count in none of them but are named in a hint.
     */
    @Test
    void deniedNowAgreesEverywhereAndAnUndeclaredPolicysPartitionsAreNamedApart() {
        Summary before = monitoring.summary();
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, pending_count, last_deny_reason, last_denied_at, "
                + "next_eligible_at, last_checked_at) VALUES ('it-order', 'agree-a', 2, 'throttle_empty', now() - interval '2 hours', "
                + "now() + interval '1 hour', now()), ('it-order', 'agree-b', 1, 'concurrency_full', now(), now() + interval '1 hour', now()), "
                + "('it-order', 'agree-c', 1, 'concurrency_full', now(), now() - interval '1 second', now())");
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, pending_count, last_deny_reason, last_denied_at, "
                + "next_eligible_at, last_checked_at) VALUES ('it-gone-app', 'g1', 3, 'throttle_empty', now(), now() + interval '1 hour', now()), "
                + "('it-gone-app', 'g2', 2, NULL, NULL, NULL, now())");
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                Summary s = monitoring.summary();
                List<DenialRow> rows = monitoring.deniedNow(null, null, null);
                assertThat(s.deniedNow().stream().mapToLong(KeyCount::count).sum()).as("the reasons add up to the card")
                        .isEqualTo(s.deniedPartitions());
                assertThat(rows).as("the Denials page's denied now, row for row").hasSize((int) s.deniedPartitions());
                assertThat(monitoring.policies().stream().flatMap(p -> p.denialReasons().stream()).mapToLong(KeyCount::count).sum())
                        .as("the policies' waiting on").isEqualTo(s.deniedPartitions());
            });
            assertThat(monitoring.deniedNow("it-order", null, "agree-")).extracting(DenialRow::partitionKey, DenialRow::reason)
                    .containsExactlyInAnyOrder(tuple("agree-a", "throttle_empty"), tuple("agree-b", "concurrency_full"));
            assertThat(monitoring.denials(15 * 60, "it-order", null, "agree-a")).as("no episode recorded: not in the 15-minute history")
                    .isEmpty();
            Summary s = monitoring.summary();
            assertThat(s.partitions() - before.partitions()).as("the declared policy's three, not the undeclared two").isEqualTo(3);
            assertThat(s.pending() - before.pending()).isEqualTo(4);
            assertThat(s.hints()).extracting(h -> h.text()).contains("Policy it-gone-app is not declared by this deployment: its 2 "
                    + "partitions (5 jobs staged) wait, uncounted above, until an application declaring it is deployed again "
                    + "(or the sweeper forgets them once idle).");
            assertThat(monitoring.deniedNow("it-gone-app", null, null)).isEmpty();
            String api = ConsoleHttp.get("api/denials?now=true&policy=it-order&partition=agree-", "viewer:viewer-secret").body();
            assertThat(api).contains("\"partitionKey\":\"agree-a\"").contains("\"partitionKey\":\"agree-b\"").doesNotContain("agree-c");
        } finally {
            db.update("DELETE FROM dispatch.partitions WHERE policy_name = 'it-gone-app' OR (policy_name = 'it-order' AND partition_key LIKE 'agree-%')");
        }
    }

    /** Issue 37: the dashboard's pending trend has every one of the last 30 minutes, null exactly where no tick ran. */
    @Test
    void thePendingTrendHasEveryMinuteAndAGapWhereNoTickRan() {
        List<io.dispatchpolicy.console.monitoring.TrendPoint> trend = monitoring.summary().pendingTrend();
        assertThat(trend).hasSize(30);
        for (int i = 1; i < trend.size(); i++) {
            assertThat(Duration.between(trend.get(i - 1).minute(), trend.get(i).minute())).isEqualTo(Duration.ofMinutes(1));
        }
        for (io.dispatchpolicy.console.monitoring.TrendPoint p : trend) {
            long samples = db.count("SELECT count(*) FROM dispatch.tick_samples WHERE date_trunc('minute', started_at) = ?",
                    java.time.OffsetDateTime.ofInstant(p.minute(), java.time.ZoneOffset.UTC));
            assertThat(p.pending() == null).as("minute %s: %s tick samples, pending %s", p.minute(), samples, p.pending()).isEqualTo(samples == 0);
        }
    }

    @Test
    void policiesShowPendingDenialsAndTopPartitions() {
        stage("it-throttle", "busy", 30);
        stage("it-throttle", "quiet", 2);
        long waitingBefore = waitingOnThrottle();
        long busy = partitionId("it-throttle", "busy");
        // the iteration's denial statement, as the tick writes it
        tick.deny(List.of(new Denial(busy, "it-throttle", "throttle_empty", Duration.ofMinutes(1), 0)));

        PolicySummary p = policy("it-throttle");
        assertThat(p.pending()).isGreaterThanOrEqualTo(32);
        assertThat(p.gates()).containsExactly("throttle: rate 10, per 60 s");
        assertThat(waitingOnThrottle()).isEqualTo(waitingBefore + 1);
        assertThat(p.topPending().get(0)).isEqualTo(new TopPartition(partitionId("it-throttle", "busy"), "busy", 30));

        assertThat(monitoring.denials(3600, "it-throttle", "throttle_empty", "bus")).extracting(d -> d.partitionKey())
                .containsExactly("busy");
        assertThat(monitoring.denials(3600, null, null, "%")).isEmpty();

        // the engine's own pass-through policy (schedules of ungoverned jobs) is listed only while it holds work
        boolean holdsWork = db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = 'dispatch-schedules'") > 0
                || db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = 'dispatch-schedules'") > 0;
        assertThat(monitoring.policies().stream().anyMatch(q -> q.name().equals("dispatch-schedules")))
                .as("dispatch-schedules listed, holding work: " + holdsWork).isEqualTo(holdsWork);
        assertThat(monitoring.policies()).extracting(PolicySummary::name).contains("it-throttle");
    }

    @Test
    void theDenialsKeepHistoryOneEpisodePerReason() {
        stage("it-throttle", "episodes", 1);
        long id = partitionId("it-throttle", "episodes");
        tick.deny(List.of(new Denial(id, "it-throttle", "throttle_empty", Duration.ofSeconds(1), 0)));
        tick.deny(List.of(new Denial(id, "it-throttle", "throttle_empty", Duration.ofSeconds(1), 0)));
        tick.deny(List.of(new Denial(id, "it-throttle", "concurrency_full", Duration.ofMinutes(1), 0)));

        List<DenialRow> episodes = monitoring.denials(3600, "it-throttle", null, "episodes");
        assertThat(episodes).extracting(DenialRow::reason, DenialRow::denials)
                .containsExactly(tuple("concurrency_full", 1), tuple("throttle_empty", 2));
        assertThat(episodes.get(0).nextEligibleAt()).as("the current episode").isNotNull();
        assertThat(episodes.get(1).nextEligibleAt()).as("an earlier one").isNull();
        assertThat(episodes.get(1).since()).isBefore(episodes.get(1).deniedAt());
        assertThat(db.count("SELECT count(*) FROM dispatch.denial_history WHERE partition_id = ?", id)).isEqualTo(2);
    }

    @Test
    void historyCountsAdmittedCompletedAndFailedPerMinute() {
        stage("it-history", "h1", 3);
        stage("it-history", "h1", 1, "fail", "true");
        ticks.iterate();
        assertThat(admitted("it-history", "h1")).isEqualTo(4);
        long h1 = partitionId("it-history", "h1");
        // counted as they commit, written by the maintenance thread every few seconds (or now)
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            history.flush();
            return db.count("SELECT coalesce(sum(completed + failed), 0) FROM dispatch.partition_minutes WHERE partition_id = ?", h1) == 4;
        });

        List<HistoryPoint> policy = monitoring.policyHistory("it-history", 5);
        assertThat(policy).hasSize(5);
        assertThat(policy.stream().mapToLong(HistoryPoint::admitted).sum()).isEqualTo(4);
        assertThat(policy.stream().mapToLong(HistoryPoint::completed).sum()).isEqualTo(3);
        assertThat(policy.stream().mapToLong(HistoryPoint::failed).sum()).isEqualTo(1);
        assertThat(monitoring.partitionHistory(h1, 5).stream().mapToLong(HistoryPoint::admitted).sum()).isEqualTo(4);
        assertThat(policy.get(4).minute()).isAfter(policy.get(0).minute());
    }

    private PolicySummary policy(String name) {
        return monitoring.policies().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
    }

    private long waitingOnThrottle() {
        return reasonCount(policy("it-throttle").denialReasons(), "throttle_empty");
    }

    @Test
    void partitionsAreBrowsedSearchedAndSortedInTheDatabase() {
        stage("it-fair", "browse-a", 3);
        stage("it-fair", "browse-b", 9);
        stage("it-fair", "browse_c", 1);
        PartitionQuery bySearch = new PartitionQuery("it-fair", "BROWSE", "pendingCount", false, 0, 2);
        assertThat(monitoring.countPartitions(bySearch)).isEqualTo(3);
        assertThat(monitoring.partitions(bySearch)).extracting(x -> x.getPartitionKey()).containsExactly("browse-b", "browse-a");
        // '_' is a character to find, not a wildcard
        assertThat(monitoring.partitions(new PartitionQuery(null, "browse_", "partitionKey", true, 0, 10)))
                .extracting(x -> x.getPartitionKey()).containsExactly("browse_c");
        // an unknown sort field falls back to pending jobs instead of reaching the SQL
        assertThat(monitoring.partitions(new PartitionQuery("it-fair", "browse", "1; DROP TABLE x", true, 0, 10))).hasSize(3);
    }

    @Test
    void partitionDetailExplainsWaitingAndActionsWork() {
        stage("it-throttle", "detail", 5);
        long id = partitionId("it-throttle", "detail");
        db.update("UPDATE dispatch.partitions SET last_deny_reason = 'throttle_empty', last_denied_at = now(), "
                + "next_eligible_at = now() + interval '2 minutes' WHERE id = ?", id);

        PartitionDetail detail = monitoring.partition(id).orElseThrow();
        assertThat(detail.waiting()).startsWith("Waiting on throttle_empty until");
        assertThat(detail.gates()).singleElement().satisfies(g -> assertThat(g.settings()).isEqualTo("throttle 10 per 60 s"));
        assertThat(detail.recentStaged()).hasSize(5);

        assertThat(partitionControl.forceAdmit(id, 2, Operators.ADMIN).admitted()).isEqualTo(2);
        assertThat(admitted("it-throttle", "detail")).isEqualTo(2);
        assertThat(partitionControl.drain(id, Operators.ADMIN)).isEqualTo(3);
        assertThat(column("pending_count", "it-throttle", "detail")).isEqualTo("0");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE partition_id = ?", id)).isZero();

        stage("it-pause", "drained", 4);
        assertThat(policyControl.drain("it-pause", Operators.ADMIN)).isGreaterThanOrEqualTo(4);
        assertThat(db.count("SELECT coalesce(sum(pending_count), 0) FROM dispatch.partitions WHERE policy_name = 'it-pause'")).isZero();
    }
}
