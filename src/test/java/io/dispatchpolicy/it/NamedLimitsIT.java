package io.dispatchpolicy.it;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Named limits shared by several policies (ADR 0049): two policies on one limit of 5 per tenant and 8 in all, admitted
 * by two tick workers at once, never go above either, and reach both; a refusal by one limit charges no other; a
 * waiting partition says which limit holds it.
 */
class NamedLimitsIT extends EngineTest {

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    private long inFlight(String policy) {
        return db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = ?", policy);
    }

    @Test
    void twoPoliciesOnOneLimitStayWithinFivePerTenantAndEightInAllUnderTwoWorkers() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> inFlight("it-limit-a") + inFlight("it-limit-b") == 0);
        for (String tenant : List.of("t1", "t2", "t3")) {
            stage("it-limit-a", tenant, 6, "sleepMs", "700");
            stage("it-limit-b", tenant, 6, "sleepMs", "700");
        }
        List<long[]> samples = new CopyOnWriteArrayList<>();
        // one statement per sample: one snapshot of every figure
        int admitted = TickWorkers.run(executor, ticks, () -> false, Duration.ofSeconds(8), () -> samples.add(java.util.Arrays.stream(
                db.strings("SELECT concat_ws(' ', coalesce(sum(cost) FILTER (WHERE limit_keys @> ARRAY['it-crm']), 0), "
                        + "coalesce(sum(cost) FILTER (WHERE limit_keys @> ARRAY['it-crm/t1']), 0), "
                        + "coalesce(sum(cost) FILTER (WHERE limit_keys @> ARRAY['it-crm/t2']), 0), "
                        + "coalesce(sum(cost) FILTER (WHERE limit_keys @> ARRAY['it-crm/t3']), 0), "
                        + "count(*) FILTER (WHERE policy_name IN ('it-limit-a', 'it-limit-b'))) FROM dispatch.inflight_jobs").get(0)
                        .split(" ")).mapToLong(Long::parseLong).toArray()));

        assertThat(admitted).as("all 36 jobs, in several waves").isEqualTo(36);
        assertThat(samples).hasSizeGreaterThan(20);
        assertThat(samples).as("never more than 8 in all").allMatch(s -> s[0] <= 8 && s[4] <= 8);
        assertThat(samples).as("never more than 5 per tenant").allMatch(s -> s[1] <= 5 && s[2] <= 5 && s[3] <= 5);
        assertThat(samples.stream().mapToLong(s -> s[0]).max().getAsLong()).as("the total reached").isEqualTo(8);
        assertThat(samples.stream().mapToLong(s -> s[0] - s[4]).max().getAsLong()).as("the keys count exactly the in-flight jobs")
                .isZero();
    }

    /** Partitions of a limit policy are admitted in groups: the limits are reckoned across the group (issue 38). */
    @Test
    void tenTenantsAdmittedTogetherTakeExactlyWhatTheTotalLeavesAndTheRestNameTheLimit() {
        await().atMost(Duration.ofSeconds(60)).until(() -> db.count("SELECT count(*) FROM dispatch.inflight_jobs") == 0);
        for (int t = 1; t <= 10; t++) {
            stage("it-limit-a", "g" + t, 3, "sleepMs", "4000");
        }
        ticks.iterate();
        assertThat(inFlight("it-limit-a")).as("8 in all, from one iteration").isEqualTo(8);
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = 'it-limit-a' AND partition_key LIKE 'g%' "
                + "AND total_admitted > 0")).as("two tenants took 3, a third the 2 left").isEqualTo(3);
        assertThat(db.strings("SELECT string_agg(DISTINCT last_deny_reason, ',') FROM dispatch.partitions "
                + "WHERE policy_name = 'it-limit-a' AND partition_key LIKE 'g%' AND total_admitted = 0")).containsExactly("limit_full:it-crm");
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = 'it-limit-a' AND partition_key LIKE 'g%' "
                + "AND total_admitted = 0 AND last_deny_reason = 'limit_full:it-crm'")).isEqualTo(7);
    }

    /**
     * A group reserves a slot per job; jobs costing three that would pass the total together (3 + 3 + 3 > 8) are
     * found once taken, and the group is admitted one partition at a time instead: 6 in flight, never 9.
     */
    @Test
    void costlyJobsAdmittedTogetherNeverPassTheTotal() {
        await().atMost(Duration.ofSeconds(60)).until(() -> db.count("SELECT count(*) FROM dispatch.inflight_jobs") == 0);
        for (int t = 1; t <= 4; t++) {
            stage("it-limit-a", "c" + t, 2, new io.dispatchpolicy.api.SubmitOption[] {io.dispatchpolicy.api.SubmitOption.cost(3)},
                    "sleepMs", "4000");
        }
        ticks.iterate();
        assertThat(db.count("SELECT coalesce(sum(cost), 0) FROM dispatch.inflight_jobs WHERE limit_keys @> ARRAY['it-crm']"))
                .as("two jobs of 3; a third would make 9").isEqualTo(6);
        assertThat(inFlight("it-limit-a")).isEqualTo(2);
    }

    @Test
    void aLimitLoweredWhileTwoWorkersAdmitHoldsFromTheNextAdmissionOnAndPreemptsNothing() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> inFlight("it-limit-a") + inFlight("it-limit-b") == 0);
        for (String tenant : List.of("r1", "r2")) {
            stage("it-limit-a", tenant, 8, "sleepMs", "600");
            stage("it-limit-b", tenant, 8, "sleepMs", "600");
        }
        long start = System.nanoTime();
        java.util.concurrent.atomic.AtomicLong loweredAt = new java.util.concurrent.atomic.AtomicLong();
        List<long[]> samples = new CopyOnWriteArrayList<>(); // {nanos since lowered (negative before), in flight under it-crm}
        TickWorkers.run(executor, ticks, () -> false, Duration.ofSeconds(5), () -> {
            long inAll = Long.parseLong(db.strings("SELECT coalesce(sum(cost), 0)::text FROM dispatch.inflight_jobs "
                    + "WHERE limit_keys @> ARRAY['it-crm']").get(0));
            if (loweredAt.get() == 0 && System.nanoTime() - start > Duration.ofMillis(1500).toNanos() && inAll >= 6) {
                set("dispatch.limit.it-crm.total-concurrency", "3"); // the operator's edit, while both workers admit
                loweredAt.set(System.nanoTime());
            }
            samples.add(new long[] {loweredAt.get() == 0 ? -1 : System.nanoTime() - loweredAt.get(), inAll});
        });

        assertThat(loweredAt.get()).as("lowered while 6 or more were in flight").isPositive();
        assertThat(samples).as("never above 8 in all").allMatch(x -> x[1] <= 8);
        // jobs of 600 ms: a second after the edit every job admitted before it has ended, and none was admitted past 3
        assertThat(samples.stream().filter(x -> x[0] > Duration.ofMillis(1000).toNanos())).as("after the edit")
                .isNotEmpty().allMatch(x -> x[1] <= 3);
        assertThat(samples.stream().filter(x -> x[0] > Duration.ofMillis(1000).toNanos()).mapToLong(x -> x[1]).max().getAsLong())
                .as("and the lowered limit is still used").isEqualTo(3);
    }

    @Test
    void aWaitingPartitionNamesTheLimitAndARefusalByOneLimitChargesNoOther() {
        await().atMost(Duration.ofSeconds(60)).until(() -> inFlight("it-limit-c") == 0);
        db.update("DELETE FROM dispatch.limit_state WHERE limit_name IN ('it-rated', 'it-single')");
        stage("it-limit-c", "solo", 3, "sleepMs", "3000");
        ticks.iterate();
        assertThat(inFlight("it-limit-c")).as("it-single allows one").isEqualTo(1);
        assertThat(db.strings("SELECT round(tokens)::text FROM dispatch.limit_state WHERE limit_name = 'it-rated'"))
                .as("the one admitted took one token of 100").containsExactly("99");
        db.update("UPDATE dispatch.limit_state SET tokens = 50, counted_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint "
                + "WHERE limit_name = 'it-rated'");

        ticks.iterate();
        assertThat(inFlight("it-limit-c")).isEqualTo(1);
        assertThat(column("last_deny_reason", "it-limit-c", "solo")).isEqualTo("limit_full:it-single");
        assertThat(db.strings("SELECT floor(tokens)::text FROM dispatch.limit_state WHERE limit_name = 'it-rated'"))
                .as("refused by it-single, nothing taken from it-rated").containsExactly("50");

        // the Denials page's filter offers each limit's reasons, and finds the partition by one
        assertThat(monitoring.denialReasons()).contains("quota_exhausted", "lane_limit", "limit_full:it-crm", "limit_throttled:it-crm",
                "limit_full:it-single", "limit_throttled:it-single").doesNotHaveDuplicates();
        assertThat(monitoring.deniedNow(null, "limit_full:it-single", "solo")).extracting(d -> d.policyName() + "/" + d.partitionKey())
                .containsExactly("it-limit-c/solo");
        assertThat(monitoring.deniedNow(null, "limit_full:it-crm", "solo")).isEmpty();

        // the Limits page's figures
        io.dispatchpolicy.console.monitoring.LimitView single = monitoring.limits().stream().filter(l -> l.name().equals("it-single"))
                .findFirst().orElseThrow();
        assertThat(single.values()).isEqualTo("1 in flight in all");
        assertThat(single.perKey()).as("totals only: no per-key table").isNull();
        assertThat(single.policies()).containsExactly("it-limit-c");
        assertThat(single.inFlight()).isEqualTo(1);
        io.dispatchpolicy.console.monitoring.LimitView crm = monitoring.limits().stream().filter(l -> l.name().equals("it-crm"))
                .findFirst().orElseThrow();
        assertThat(crm.values()).isEqualTo("5 in flight per tenant · 8 in flight in all");
        assertThat(crm.perKey()).isEqualTo("tenant");
        assertThat(crm.policies()).containsExactly("it-limit-a", "it-limit-b");
    }

    @jakarta.inject.Inject
    io.dispatchpolicy.console.monitoring.Monitoring monitoring;

    @jakarta.inject.Inject
    io.dispatchpolicy.policy.PolicyRegistry registry;

    @Test
    void aPolicysLimitsAreReplacedLiveAndANameNoLimitHasHoldsThePolicyNamingTheProperty() {
        assertThat(registry.effective("it-limit-c").limits()).extracting(io.dispatchpolicy.spi.Limit::name)
                .containsExactly("it-rated", "it-single");
        set("dispatch.policy.it-limit-c.limits", "it-crm");
        assertThat(registry.effective("it-limit-c").limits()).extracting(io.dispatchpolicy.spi.Limit::name).containsExactly("it-crm");
        set("dispatch.limit.it-crm.total-concurrency", "12");
        assertThat(registry.effective("it-limit-c").limits().get(0).totalConcurrency()).as("a limit's value, live").isEqualTo(12);
        set("dispatch.policy.it-limit-c.limits", "it-crm,it-nope");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> registry.effective("it-limit-c"))
                .isInstanceOf(io.dispatchpolicy.config.InvalidSettingException.class)
                .hasMessageStartingWith("Invalid value 'it-crm,it-nope' for dispatch.policy.it-limit-c.limits: expected the names of "
                        + "declared limits [it-crm, it-rated, it-single]");
        set("dispatch.limit.it-crm.total-concurrency", "0");
        set("dispatch.policy.it-limit-c.limits", "none");
        assertThat(registry.effective("it-limit-c").limits()).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> registry.effective("it-limit-a"))
                .isInstanceOf(io.dispatchpolicy.config.InvalidSettingException.class)
                .hasMessage("Invalid value '0' for dispatch.limit.it-crm.total-concurrency: expected a whole number >= 1");
    }
}
