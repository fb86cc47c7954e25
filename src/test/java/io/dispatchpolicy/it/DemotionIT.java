package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.console.monitoring.DemotionView;
import io.dispatchpolicy.console.monitoring.Monitoring;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Demotion of noisy tenants (ADR 0011): a tenant over a rule's threshold in its sliding window has its
 * new submissions sent to the rule's lane, the last matching rule wins, counts are shared by concurrent
 * submitters, retries are not counted, and a job without a tenant is neither counted nor demoted.
 */
class DemotionIT extends EngineTest {

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Inject
    Monitoring monitoring;

    @Resource(lookup = "java:jboss/UserTransaction")
    jakarta.transaction.UserTransaction transaction;

    private long[] oneByOne(String policy, String tenant, int n, String... params) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = stage(policy, tenant, 1, params)[0];
        }
        return ids;
    }

    private static String fresh(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    @Test
    void theSixthSubmissionInTenSecondsGoesSlowAndTheNextAfterTheWindowDoesNot() {
        String tenant = fresh("noisy");
        long[] ids = oneByOne("it-demote", tenant, 6);
        assertThat(db.stagedLanes(ids)).containsExactly("default", "default", "default", "default", "default", "slow");
        // the console reads the same counts: over the rule now, until the oldest bucket that keeps 5 in
        // the window leaves it (the first submission's second, ten seconds on)
        DemotionView shown = demoted("it-demote", tenant).orElseThrow();
        assertThat(shown.lane() + " " + shown.rule() + " " + shown.submissions()).isEqualTo("slow 5:10:slow 6");
        Instant firstBucket = db.strings("SELECT extract(epoch FROM date_trunc('second', staged_at))::bigint::text "
                + "FROM dispatch.staged_jobs WHERE id = ?", ids[0]).stream().map(s -> Instant.ofEpochSecond(Long.parseLong(s)))
                .findFirst().orElseThrow();
        Instant secondBucket = db.strings("SELECT extract(epoch FROM date_trunc('second', staged_at))::bigint::text "
                + "FROM dispatch.staged_jobs WHERE id = ?", ids[1]).stream().map(s -> Instant.ofEpochSecond(Long.parseLong(s)))
                .findFirst().orElseThrow();
        // five or more in the window from the bucket of the first or the second submission on (both may share one)
        assertThat(shown.until()).isIn(firstBucket.plusSeconds(10), secondBucket.plusSeconds(10));

        // a caller's lane is kept (this policy does not let demotion override it), and still counted
        long named = stage("it-demote", tenant, 1, new SubmitOption[] {SubmitOption.lane("default")})[0];
        assertThat(db.stagedLanes(named)).containsExactly("default");
        assertThat(db.count("SELECT total FROM dispatch.tenant_windows WHERE policy_name = 'it-demote' AND tenant = ?", tenant))
                .isEqualTo(7);

        // ten seconds (and one bucket) after the last of them, the window holds none of them
        String last = db.strings("SELECT (max(staged_at) + interval '11 seconds')::text FROM dispatch.staged_jobs WHERE id = ANY(?)",
                (Object) new Long[] {ids[5], named}).get(0);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> db.count("SELECT count(*) FROM (SELECT 1 WHERE now() > ?::timestamptz) x", last) == 1);
        assertThat(demoted("it-demote", tenant)).as("the window holds one submission").isEmpty();
        assertThat(db.stagedLanes(stage("it-demote", tenant, 1))).containsExactly("default");
    }

    private Optional<DemotionView> demoted(String policy, String tenant) {
        return monitoring.policies().stream().filter(p -> p.name().equals(policy)).findFirst().orElseThrow().demoted().stream()
                .filter(d -> d.tenant().equals(tenant)).findFirst();
    }

    @Test
    void ofTwoMatchingRulesTheLastWinsEvenOverANamedLaneAndJobsWithoutATenantAreNotCounted() {
        String account = fresh("account");
        long[] ids = stage("it-demote2", "t", 5, "account", account);
        assertThat(db.stagedLanes(ids)).containsExactly("default", "default", "slow", "slow", "slower");
        long named = stage("it-demote2", "t", 1, new SubmitOption[] {SubmitOption.lane("default")}, "account", account)[0];
        assertThat(db.stagedLanes(named)).as("this policy's demotion overrides the caller's lane").containsExactly("slower");

        long[] anonymous = stage("it-demote2", "t", 8);
        assertThat(db.stagedLanes(anonymous)).containsOnly("default");
        // the rules' windows are one minute (one-second buckets) and two (one-minute buckets): a ring each
        assertThat(db.strings("SELECT resolution_s || ':' || total FROM dispatch.tenant_windows WHERE policy_name = 'it-demote2'"
                + " AND tenant = ? ORDER BY resolution_s", account)).as("each of the account's jobs counted once").containsExactly("1:6", "60:6");
    }

    @Test
    void aCallMixingJobsWithAndWithoutATenantCountsTheTenantsJobsOnly() {
        // the first submission creates the account's ring; the next call counts its two jobs with the
        // account, not the two without
        String account = fresh("mixed");
        assertThat(db.stagedLanes(stage("it-demote4", "m", 1, "account", account))).containsExactly("default");
        List<java.util.Properties> jobs = List.of(Params.of("tenant", "m", "account", account), Params.of("tenant", "m"),
                Params.of("tenant", "m"), Params.of("tenant", "m", "account", account));
        long[] ids = dispatch.submitAll("it-demote4", jobs);
        assertThat(db.stagedLanes(ids)).as("the account's 2nd and 3rd submissions; over 2 from the 3rd")
                .containsExactly("default", "default", "default", "slow");
        assertThat(db.count("SELECT total FROM dispatch.tenant_windows WHERE policy_name = 'it-demote4' AND tenant = ?", account))
                .isEqualTo(3);
    }

    @Test
    void aCountedSubmissionLeavesTheCallersTransactionPlannedAsBefore() throws Exception {
        // staging touches none of the caller's settings (an earlier version changed plan_cache_mode for the
        // counted statement and had to put it back)
        String tenant = fresh("planned");
        transaction.begin();
        long id;
        try {
            db.update("SET LOCAL plan_cache_mode = force_custom_plan");
            id = stage("it-demote", tenant, 1)[0];
            assertThat(db.strings("SELECT current_setting('plan_cache_mode')")).containsExactly("force_custom_plan");
            transaction.commit();
        } catch (Exception | AssertionError e) {
            transaction.rollback();
            throw e;
        }
        assertThat(db.stagedLanes(new long[] {id})).containsExactly("default");
    }

    @Test
    void twoConcurrentSubmittersSeeOneCount() throws Exception {
        String tenant = fresh("shared");
        Callable<long[]> submitter = () -> oneByOne("it-demote3", tenant, 10);
        List<Future<long[]>> both = executor.invokeAll(List.of(submitter, submitter));
        List<Long> ids = new ArrayList<>();
        for (Future<long[]> f : both) {
            Arrays.stream(f.get()).forEach(ids::add);
        }
        List<String> lanes = db.stagedLanes(ids.stream().mapToLong(Long::longValue).toArray());
        assertThat(lanes).hasSize(20);
        assertThat(lanes.stream().filter("default"::equals).count()).as("%s", lanes).isEqualTo(10);
        assertThat(lanes.stream().filter("slow"::equals).count()).as("%s", lanes).isEqualTo(10);
    }

    @Test
    void retriesAreNotCounted() {
        String tenant = fresh("failing");
        long id = stage("it-demote-retry", tenant, 1, "fail", "true")[0];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", id) == 1;
        });
        assertThat(db.count("SELECT attempts FROM dispatch.dead_jobs WHERE submission_id = ?", id)).isEqualTo(4);
        assertThat(db.count("SELECT total FROM dispatch.tenant_windows WHERE policy_name = 'it-demote-retry' AND tenant = ?", tenant))
                .as("one submission, three retries").isEqualTo(1);
        assertThat(db.stagedLanes(stage("it-demote-retry", tenant, 1))).as("the second submission is the one over 1").containsExactly("slow");
    }

    @Test
    void submissionsThisNodeDidNotSeePlaceAJobByTheRealCounts() {
        // a submission is placed by the count it reads back from the database, with every other node's
        // submissions in it; other nodes' submissions are simulated by writing the tenant's ring behind
        // this node's back
        String tenant = fresh("guessed");
        assertThat(db.stagedLanes(stage("it-demote", tenant, 1))).containsExactly("default");
        db.update("UPDATE dispatch.tenant_windows SET total = total + 10 WHERE policy_name = 'it-demote' AND tenant = ?", tenant);
        long over = stage("it-demote", tenant, 1)[0];
        assertThat(db.stagedLanes(over)).as("this node saw 2, counted 12").containsExactly("slow");

        // all of them older than the window
        db.update("UPDATE dispatch.tenant_windows SET older = array_fill(total, ARRAY[10]) WHERE policy_name = 'it-demote' AND tenant = ?",
                tenant);
        long under = stage("it-demote", tenant, 1)[0];
        assertThat(db.stagedLanes(under)).as("this node saw 13, counted 1").containsExactly("default");

        // three jobs staged, each counted once, in its own lane's row
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = 'it-demote' AND p.partition_key = ?", tenant)).isEqualTo(3);
        assertThat(db.strings("SELECT lane || ' ' || pending_count FROM dispatch.partitions WHERE policy_name = 'it-demote' "
                + "AND partition_key = ? ORDER BY lane", tenant)).containsExactly(" 0", "default 2", "slow 1");
        assertThat(db.count("SELECT total - older[cardinality(older)] FROM dispatch.tenant_windows WHERE policy_name = 'it-demote' "
                + "AND tenant = ?", tenant)).as("each submission counted once: one in the ring since it was emptied").isEqualTo(1);
    }

    @Test
    void aWindowCountsTheBucketsThatStartInsideIt() {
        // rule 5 per 10 s, one-second buckets: 9 submissions in a bucket 11 s old are outside the window,
        // 4 in a bucket 8 s old inside it (each bound a second clear of the window's edge)
        String tenant = fresh("buckets");
        // (the ring counts before each bucket: per bucket, newest first, 0,0,0,0,0,0,0,0,4,0,0,9)
        db.update("INSERT INTO dispatch.tenant_windows (policy_name, tenant, resolution_s, newest, total, older) VALUES "
                + "('it-demote', ?, 1, floor(extract(epoch FROM now()))::bigint, 13, '{13,13,13,13,13,13,13,13,9,9,9,0}')", tenant);
        assertThat(db.stagedLanes(stage("it-demote", tenant, 1))).as("4 + 1 in the window").containsExactly("default");
        assertThat(db.stagedLanes(stage("it-demote", tenant, 1))).as("4 + 2 in the window").containsExactly("slow");
        assertThat(db.count("SELECT cardinality(older) FROM dispatch.tenant_windows WHERE policy_name = 'it-demote' AND tenant = ?",
                tenant)).as("the ring cut to the rule's ten buckets").isEqualTo(10);
    }

    @Test
    void aSubmissionThatStartedBeforeTheRingMovedOnIsCountedInItsOwnBucket() {
        // another submission, whose statement began a few seconds later, has moved the tenant's ring past
        // this statement's bucket (simulated: its newest bucket is 3 s ahead, with 2 submissions in it,
        // and the ring is shorter than the rule needs, as after a window was lengthened)
        String tenant = fresh("late");
        db.update("INSERT INTO dispatch.tenant_windows (policy_name, tenant, resolution_s, newest, total, older) VALUES "
                + "('it-demote', ?, 1, floor(extract(epoch FROM now()))::bigint + 3, 2, '{0,0}')", tenant);
        stage("it-demote", tenant, 1);
        List<String> ring = db.strings("SELECT newest - floor(extract(epoch FROM now()))::bigint || ' ' || total || ' ' || older::text "
                + "FROM dispatch.tenant_windows WHERE policy_name = 'it-demote' AND tenant = ?", tenant);
        // still 3 s ahead (or 2, if a second passed meanwhile), the late submission 3 (or 2) buckets back:
        // older than the 3 (or 2) newer buckets, newer than the rest; per bucket 2,0,0,1,0,... (or 2,0,1,0,...)
        assertThat(ring).hasSize(1);
        assertThat(ring.get(0)).isIn("3 3 {1,1,1,0,0,0,0,0,0,0}", "2 3 {1,1,0,0,0,0,0,0,0,0}");
        assertThat(db.stagedLanes(stage("it-demote", tenant, 3))).as("2 + 1 + 3 = 6 > 5").containsExactly("default", "default", "slow");
    }
}
