package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.domain.gate.ResolvedGate;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.DeclaredGate;
import io.dispatchpolicy.upkeep.Sweeper;
import jakarta.inject.Inject;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** standalone.xml configuration: a policy declared there, overrides read live, bad values refused by name. */
class ConfigurationIT extends EngineTest {

    @Inject
    PolicyRegistry policies;

    @Inject
    DispatchSettings settings;

    @Inject
    Sweeper sweeper;

    @Test
    void aPolicyDeclaredInStandaloneXmlGovernsItsJob() {
        assertThat(policies.forJob("it-config")).isPresent();
        assertThat(policies.named("it-config").orElseThrow().gates()).extracting(DeclaredGate::id)
                .containsExactly("concurrency", "throttle");
        List<ResolvedGate> gates = policies.effective("it-config").resolveGates(Map.of());
        assertThat(gates).containsExactly(
                new ResolvedGate.Concurrency("concurrency", 2, Duration.ofSeconds(1)),
                new ResolvedGate.Throttle("throttle", 100, 60));

        long[] ids = stage("it-config", "cfg", 5);
        assertThat(DispatchOperator.isSubmissionId(ids[0])).isTrue();
        ticks.iterate();
        assertThat(admitted("it-config", "cfg")).isEqualTo(2);
    }

    @Test
    void perPolicyOverridesApplyOnTheNextReadWithoutRedeploy() {
        set("dispatch.policy.it-config.gate.concurrency.max", "7");
        set("dispatch.policy.it-throttle.admission-batch-size", "3");
        set("dispatch.policy.it-throttle.retry-strategy", "bypass");
        assertThat(policies.effective("it-config").resolveGates(Map.of()).get(0))
                .isEqualTo(new ResolvedGate.Concurrency("concurrency", 7, Duration.ofSeconds(1)));
        EffectivePolicy throttle = policies.effective("it-throttle");
        assertThat(throttle.admissionBatchSize()).isEqualTo(3);
        assertThat(throttle.retryStrategy().name()).isEqualTo("BYPASS");
    }

    @Test
    void retriesAreConfiguredWithConstantsOverTheDeclaration() {
        assertThat(policies.effective("it-autoretry").retries().describe()).isEqualTo("1.0 s, at most 2 retries");
        assertThat(policies.effective("it-throttle").retries().declared()).as("none declared").isFalse();
        set("dispatch.policy.it-autoretry.retry.max-retries", "4");
        assertThat(policies.effective("it-autoretry").retries().describe()).isEqualTo("1.0 s, at most 4 retries");
        set("dispatch.policy.it-autoretry.retry.interval", "exponential");
        assertThat(policies.effective("it-autoretry").retries().describe()).isEqualTo("exponential, at most 4 retries");
        set("dispatch.policy.it-throttle.retry.interval", "2.5");
        assertThat(policies.effective("it-throttle").retries().describe()).isEqualTo("2.5 s, at most 10 retries");
        set("dispatch.policy.it-flow.retry.max-retries", "3");
        assertThat(policies.effective("it-flow").retries().describe()).isEqualTo("exponential, at most 3 retries");
        policies.validateSettings();
    }

    @Test
    void invalidValuesAreRefusedWithThePropertysName() {
        // (a wrong *name* is reported, not refused: SettingNamesIT)
        refused("dispatch.policy.it-throttle.gate.throttle.per", "soon", policies::validateSettings);
        refused("dispatch.tick-admission-budget", "-1", settings::validate);
        refused("dispatch.policy.it-flow.retry.interval", "soon", policies::validateSettings);
        refused("dispatch.policy.it-flow.retry.max-retries", "-2", policies::validateSettings);

        policies.validateSettings();
        settings.validate();
    }

    /** Setting {@code property} makes {@code validation} fail naming it; the property is removed again. */
    private void refused(String property, String value, ThrowingCallable validation) {
        set(property, value);
        assertThatThrownBy(validation).isInstanceOf(InvalidSettingException.class).hasMessageContaining(property);
        System.clearProperty(property);
    }

    @Test
    void theSweeperDeletesOldSamplesOldAdmissionsAndIdleEmptyPartitions() {
        db.update("INSERT INTO dispatch.tick_samples (node_id, started_at, duration_ms, iterations, claimed, admitted, "
                + "pending, in_flight) VALUES (gen_random_uuid(), now() - interval '3 days', 1, 1, 0, 0, 0, 0)");
        db.update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at) "
                + "VALUES (-77, -77, 0, now() - interval '30 days')");
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, created_at, last_admitted_at) "
                + "VALUES ('it-fair', 'long-gone', now() - interval '3 days', now() - interval '2 days')");
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key) VALUES ('it-fair', 'fresh')");
        // dead jobs: one past dispatch.dead-retention (90 days), one not; the latter keeps its idle partition
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, created_at, last_admitted_at) "
                + "VALUES ('it-fair', 'has-dead', now() - interval '200 days', now() - interval '100 days')");
        long hasDead = partitionId("it-fair", "has-dead");
        db.update("INSERT INTO dispatch.dead_jobs (submission_id, partition_id, job_name, execution_id, attempts, priority, died_at) "
                + "VALUES (-81, ?, 'it-fair', -81, 3, 0, now() - interval '91 days'), (-82, ?, 'it-fair', -82, 3, 0, now() - interval '89 days')",
                hasDead, hasDead);

        while (sweeper.sweep() > 0) {
            // until nothing is left to sweep
        }
        assertThat(db.count("SELECT count(*) FROM dispatch.tick_samples WHERE started_at < now() - interval '2 days'")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions WHERE submission_id = -77")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE partition_key = 'long-gone'")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE partition_key = 'fresh'")).isEqualTo(1);
        assertThat(db.strings("SELECT submission_id::text FROM dispatch.dead_jobs WHERE partition_id = ?", hasDead))
                .containsExactly("-82");
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE id = ?", hasDead)).as("kept for its dead job").isEqualTo(1);
        db.update("DELETE FROM dispatch.dead_jobs WHERE partition_id = ?", hasDead);
        db.update("DELETE FROM dispatch.partitions WHERE id = ?", hasDead);
    }

    @Test
    void everyTickWritesOneSampleRow() {
        long before = db.count("SELECT count(*) FROM dispatch.tick_samples");
        set("dispatch.tick-max-duration", "0.5");
        letTheNodeTick();
        await().atMost(Duration.ofSeconds(20)).until(() -> db.count("SELECT count(*) FROM dispatch.tick_samples") > before);
        assertThat(db.strings("SELECT node_id::text FROM dispatch.tick_samples ORDER BY id DESC LIMIT 1")).hasSize(1);
    }
}
