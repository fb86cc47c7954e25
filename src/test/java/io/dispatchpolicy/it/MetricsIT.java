package io.dispatchpolicy.it;

import io.dispatchpolicy.observe.MetricsSampler;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine's metrics as a metrics stack reads them: scraped from WildFly's Prometheus endpoint, the
 * counters move by exactly what the engine did, and the gauges show what the database holds.
 */
class MetricsIT extends EngineTest {

    private static final String POLICY = "it-metrics";
    private static final String CAPPED = "it-metrics-capped";

    @Inject
    MetricsSampler sampler;

    @Test
    void countersRiseByExactlyWhatWasStagedAdmittedAndCompleted() throws Exception {
        Scrape before = Scrape.now();

        stage(POLICY, "m1", 3);
        stage(POLICY, "m2", 2);
        assertThat(ticks.iterate().admitted()).isEqualTo(5);
        await().atMost(Duration.ofSeconds(30)).until(() -> delta(before, "dispatch_executions_finished_total",
                "policy", POLICY, "status", "COMPLETED") == 5);

        Scrape after = Scrape.now();
        assertThat(after.value("dispatch_jobs_staged_total", "policy", POLICY)
                - before.value("dispatch_jobs_staged_total", "policy", POLICY)).isEqualTo(5);
        assertThat(after.value("dispatch_jobs_admitted_total", "policy", POLICY, "lane", "")
                - before.value("dispatch_jobs_admitted_total", "policy", POLICY, "lane", "")).isEqualTo(5);
        // the wait: a timer (count, sum) and cumulative buckets that histogram_quantile reads
        assertThat(after.value("dispatch_admission_wait_seconds_count", "policy", POLICY)
                - before.value("dispatch_admission_wait_seconds_count", "policy", POLICY)).isEqualTo(5);
        assertThat(after.value("dispatch_admission_wait_le_total", "policy", POLICY, "le", "+Inf")
                - before.value("dispatch_admission_wait_le_total", "policy", POLICY, "le", "+Inf")).isEqualTo(5);
        assertThat(after.value("dispatch_admission_wait_le_total", "policy", POLICY, "le", "3600")
                - before.value("dispatch_admission_wait_le_total", "policy", POLICY, "le", "3600")).isEqualTo(5);
        assertThat(after.value("dispatch_executions_finished_total", "policy", POLICY, "status", "FAILED")
                - before.value("dispatch_executions_finished_total", "policy", POLICY, "status", "FAILED")).isZero();
        // no partition key is a label
        assertThat(after.text()).doesNotContain("\"m1\"").doesNotContain("\"m2\"");
    }

    @Test
    void aDenialIsCountedByPolicyAndReasonAndTheGaugesShowTheDatabase() throws Exception {
        stage(CAPPED, "c1", 4);
        occupySlots(CAPPED, "c1", 1);
        try {
            Scrape before = Scrape.now();

            ticks.iterate();
            assertThat(admitted(CAPPED, "c1")).as("its one slot is taken").isZero();
            sampler.sampleNow();

            Scrape after = Scrape.now();
            assertThat(after.value("dispatch_jobs_denied_total", "policy", CAPPED, "reason", "concurrency_full")
                    - before.value("dispatch_jobs_denied_total", "policy", CAPPED, "reason", "concurrency_full")).isEqualTo(1);
            assertThat(after.value("dispatch_jobs_pending", "policy", CAPPED)).isEqualTo(4);
            assertThat(after.value("dispatch_jobs_inflight", "policy", CAPPED)).isEqualTo(1);
            // what the shipped alerts read (ADR 0040): the policy is not held, no shard unserved
            assertThat(after.text()).contains("dispatch_policy_held{");
            assertThat(after.value("dispatch_policy_held", "policy", CAPPED))
                    .as("dispatch_policy_held as scraped: %s", after.text().lines().filter(l -> l.startsWith("dispatch_policy_held")).toList())
                    .isZero();
            assertThat(after.value("dispatch_jobs_unserved", "policy", CAPPED)).isZero();
            set("dispatch.policy." + CAPPED + ".gate.concurrency.max", "abc");
            sampler.sampleNow();
            assertThat(Scrape.now().value("dispatch_policy_held", "policy", CAPPED)).as("held by a bad setting").isEqualTo(1);
        } finally {
            freeSlots(CAPPED, "c1");
        }
    }

    private static double delta(Scrape before, String name, String... labels) throws Exception {
        return Scrape.now().value(name, labels) - before.value(name, labels);
    }
}
