package io.dispatchpolicy.it;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fairness by usage (ADR 0048): two tenants both saturating a capacity of 5, one with jobs of 2 s and one with jobs
 * of 200 ms. Ordered by decayed slot-seconds they get the same worker time (the short one ten times the jobs);
 * ordered by decayed admissions, run side by side on the same node, they get the same number of jobs and the long
 * one about ten times the worker time. Worker time is measured from JBeret's own start and end times, within a
 * window after the first 15 s.
 */
class UsageFairnessIT extends EngineTest {

    private static final Duration WARM_UP = Duration.ofSeconds(15);
    private static final Duration WINDOW = Duration.ofSeconds(30);

    /** The seconds the tenant's executions ran within [from, to] (epoch ms, the database's clock). */
    private double slotSeconds(String policy, String tenant, long from, long to) {
        return Double.parseDouble(db.strings("SELECT coalesce(sum(greatest(0, extract(epoch FROM least(coalesce(e.endtime, clock_timestamp()), "
                + "to_timestamp(? / 1000.0)) - greatest(e.starttime, to_timestamp(? / 1000.0))))), 0)::text "
                + "FROM dispatch.admissions a JOIN dispatch.partitions p ON p.id = a.partition_id "
                + "JOIN job_execution e ON e.jobexecutionid = a.execution_id "
                + "WHERE p.policy_name = ? AND p.partition_key = ? AND e.starttime IS NOT NULL", to, from, policy, tenant).get(0));
    }

    private long startedWithin(String policy, String tenant, long from, long to) {
        return db.count("SELECT count(*) FROM dispatch.admissions a JOIN dispatch.partitions p ON p.id = a.partition_id "
                + "JOIN job_execution e ON e.jobexecutionid = a.execution_id WHERE p.policy_name = ? AND p.partition_key = ? "
                + "AND e.starttime >= to_timestamp(? / 1000.0) AND e.starttime < to_timestamp(? / 1000.0)", policy, tenant, from, to);
    }

    @jakarta.inject.Inject
    io.dispatchpolicy.policy.PolicySettings policySettings;

    @jakarta.inject.Inject
    io.dispatchpolicy.policy.PolicyRegistry registry;

    @Test
    void theMeasureIsSetLiveAndAnUnknownOneIsRefusedNamingTheProperty() {
        io.dispatchpolicy.spi.Policy counted = registry.named("it-count").orElseThrow();
        assertThat(policySettings.effective(counted).usageHalfLifeSeconds()).isEmpty();
        set("dispatch.policy.it-count.fairness-measure", "usage");
        assertThat(policySettings.effective(counted).usageHalfLifeSeconds()).hasValue(10.0);
        set("dispatch.policy.it-count.fairness-measure", "cpu");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> policySettings.effective(counted))
                .isInstanceOf(io.dispatchpolicy.config.InvalidSettingException.class)
                .hasMessage("Invalid value 'cpu' for dispatch.policy.it-count.fairness-measure: expected admissions or usage");
    }

    private long dbMillis() {
        return db.count("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
    }

    @Test
    void tenantsWhoseJobsDifferTenfoldGetTheSameWorkerTimeByUsageAndTenfoldByCount() {
        await().atMost(Duration.ofSeconds(60)).until(() -> db.count("SELECT count(*) FROM dispatch.inflight_jobs") == 0);
        for (String policy : new String[] {"it-usage", "it-count"}) {
            stage(policy, "long", 150, "sleepMs", "2000");
            stage(policy, "short", 1500, "sleepMs", "200");
        }
        long start = dbMillis();
        long from = start + WARM_UP.toMillis();
        long to = from + WINDOW.toMillis();
        while (dbMillis() < to) {
            ticks.iterate();
        }
        double usageLong = slotSeconds("it-usage", "long", from, to);
        double usageShort = slotSeconds("it-usage", "short", from, to);
        double countLong = slotSeconds("it-count", "long", from, to);
        double countShort = slotSeconds("it-count", "short", from, to);
        String figures = String.format("by usage: long %.1f s in %d jobs, short %.1f s in %d jobs; by count: long %.1f s in %d jobs, "
                        + "short %.1f s in %d jobs", usageLong, startedWithin("it-usage", "long", from, to), usageShort,
                startedWithin("it-usage", "short", from, to), countLong, startedWithin("it-count", "long", from, to), countShort,
                startedWithin("it-count", "short", from, to));
        System.out.println("UsageFairnessIT: " + figures);

        assertThat(usageLong + usageShort).as("the capacity was used: " + figures).isGreaterThan(0.8 * 5 * WINDOW.toSeconds());
        assertThat(usageShort / usageLong).as("by usage, worker time within 10 %%: " + figures).isBetween(0.9, 1.1);
        assertThat((double) startedWithin("it-usage", "short", from, to) / startedWithin("it-usage", "long", from, to))
                .as("the short tenant ran several times the jobs: " + figures).isGreaterThan(5.0);
        assertThat(countLong / countShort).as("by count, the long tenant had several times the worker time: " + figures)
                .isGreaterThan(4.0);
    }
}
