package io.dispatchpolicy.tick;

import io.dispatchpolicy.admission.InflightRepository;
import io.dispatchpolicy.admission.TestRepositories;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.spi.FairnessMeasure;
import io.dispatchpolicy.spi.Policy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Fairness by usage (ADR 0048) against the engine's test database: the claim counts what a partition's running jobs
 * have run, a run that ends is added to the partition's stored usage (the same figure, so nothing jumps), and the
 * round orders by it where fairness by admissions would order the other way.
 */
class UsageFairnessTest {

    private static final String POLICY = "it-usage-unit";
    private static final double HALF_LIFE = 60;
    private static final double TAU = HALF_LIFE / Math.log(2);
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final InflightRepository inflight = TestRepositories.inflight(jdbc);
    private final Claims claims = new Claims();
    private long longJobs;
    private long shortJobs;

    @BeforeEach
    void twoTenants() {
        claims.jdbc = jdbc;
        // as their first admissions leave them: usage counted from now, the short tenant with more admissions
        longJobs = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context, pending_count, usage_at, decayed_admits, "
                + "decayed_admits_at) VALUES (?, 'long', '{}', 1, now(), 1, now()) RETURNING id", POLICY);
        shortJobs = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context, pending_count, usage_at, decayed_admits, "
                + "decayed_admits_at) VALUES (?, 'short', '{}', 1, now(), 5, now()) RETURNING id", POLICY);
        // the long tenant's job of cost 2 has run for 10 s
        db.update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, gate_id, policy_name, node_id, admitted_at, "
                + "started_at, cost, usage_half_life) VALUES (-88, -88, ?, ?, ?, gen_random_uuid(), now() - interval '10 seconds', "
                + "now() - interval '10 seconds', 2, ?)", longJobs, longJobs, POLICY, HALF_LIFE);
    }

    @AfterEach
    void removeThem() {
        db.update("DELETE FROM dispatch.inflight_jobs WHERE execution_id = -88");
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
    }

    private Map<Long, ClaimedPartition> claim() {
        return claims.claim(10_000).stream().filter(p -> p.policyName().equals(POLICY))
                .collect(java.util.stream.Collectors.toMap(ClaimedPartition::id, p -> p));
    }

    @Test
    void aRunningJobCountsAsItRunsAndTheSameFigureIsStoredWhenItEnds() {
        double tenSeconds = 2 * TAU * (1 - Math.exp(-10 / TAU)); // 2 slots for 10 s, each second decayed to now: 18.9
        Map<Long, ClaimedPartition> running = claim();
        assertThat(running.get(longJobs).usage().running()).isCloseTo(tenSeconds, within(0.3));
        assertThat(running.get(shortJobs).usage().running()).isZero();

        inflight.forget(-88);
        assertThat(db.count("SELECT round(decayed_usage * 10) FROM dispatch.partitions WHERE id = ?", longJobs) / 10.0)
                .isCloseTo(tenSeconds, within(0.3));
        Map<Long, ClaimedPartition> ended = claim();
        assertThat(ended.get(longJobs).usage().running()).isZero();
        assertThat(ended.get(longJobs).usage().at(System.currentTimeMillis(), HALF_LIFE)).isCloseTo(tenSeconds, within(0.3));
    }

    @Test
    void theRoundOrdersByUsageWhereAdmissionsWouldOrderTheOtherWay() {
        List<ClaimedPartition> claimed = List.copyOf(claim().values());
        long now = System.currentTimeMillis();
        assertThat(PolicyRound.ordered(policy(FairnessMeasure.USAGE), claimed, now)).extracting(ClaimedPartition::id)
                .as("the short tenant has run nothing yet").containsExactly(shortJobs, longJobs);
        assertThat(PolicyRound.ordered(policy(FairnessMeasure.ADMISSIONS), claimed, now)).extracting(ClaimedPartition::id)
                .as("but it was admitted 5 times to 1").containsExactly(longJobs, shortJobs);
    }

    private static EffectivePolicy policy(FairnessMeasure measure) {
        Policy declared = Policy.named(POLICY).governs("j").partitionBy(ctx -> "k").fairnessBy(measure).build();
        return new EffectivePolicy(declared, 10, OptionalInt.empty(), OptionalInt.empty(), List.of(), null, List.of(),
                Optional.of(Duration.ofSeconds((long) HALF_LIFE)), declared.retryStrategy(), declared.retries(), Map.of());
    }
}
