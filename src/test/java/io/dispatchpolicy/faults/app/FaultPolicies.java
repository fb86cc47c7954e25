package io.dispatchpolicy.faults.app;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.util.Map;

/**
 * The fault suite's policies: the storm's (its cap is what the concurrency invariant checks), one that
 * retries an always-failing job once, {@link #RETRY_DELAY} after it failed, scenario (f)'s storm policy
 * with a policy-wide capacity below what its tenants' caps add up to, and scenario (g)'s sharded one.
 * A job is governed by one policy only, so each has a job XML of its own (all run the same batchlet).
 */
@ApplicationScoped
public class FaultPolicies {

    public static final String POLICY = "fault-storm";
    public static final String JOB = "fault-job";
    public static final int CONCURRENCY = 3;

    public static final String RETRY_POLICY = "fault-retry";
    public static final String FAILING_JOB = "fault-failing";
    /** Long enough for a clean stop to finish before the retry is due. */
    public static final Duration RETRY_DELAY = Duration.ofSeconds(20);

    /** Scenario (f): the storm's shape under a capacity that binds (20 tenants x 3 = 60 > 40). */
    public static final String CAPPED_POLICY = "fault-capped";
    public static final String CAPPED_JOB = "fault-capped-job";
    public static final int CAPPED_CAPACITY = 40;

    /** Scenario (g): partitioned by tenant, sharded by the tenant number's parity. */
    public static final String SHARDED_POLICY = "fault-sharded";
    public static final String SHARDED_JOB = "fault-sharded-job";
    public static final String EVEN = "even";
    public static final String ODD = "odd";

    /** Scenario (k): a job that pauses its own partition (ADR 0033), partitioned by tenant. */
    public static final String PAUSE_POLICY = "fault-pausing";
    public static final String PAUSE_JOB = "fault-pause";

    /** Scenario (k): chunk jobs drawing from their tenant's item bucket (ADR 0034): 20 items a second, a bucket of 20. */
    public static final String ITEMS_POLICY = "fault-items";
    public static final String ITEMS_JOB = "fault-items";
    public static final int ITEM_RATE = 20;

    /** Scenario (k): jobs unique by their {@code order} parameter while staged or running (ADR 0036). */
    public static final String UNIQUE_POLICY = "fault-unique";
    public static final String UNIQUE_JOB = "fault-unique";

    /** Scenario (m): two policies sharing one named limit (ADR 0049) of 5 per tenant and 8 in all, on two nodes. */
    public static final String LIMIT = "fault-api";
    public static final String LIMIT_A = "fault-limit-a";
    public static final String LIMIT_B = "fault-limit-b";
    public static final int LIMIT_PER_TENANT = 5;
    public static final int LIMIT_IN_ALL = 8;

    /** Scenario (n), continuations: A retried once at once, followed by B (2 per tenant) on success, C (1 at once) on failure. */
    public static final String CONT_A = "fault-cont-a";
    public static final String CONT_B = "fault-cont-b";
    public static final String CONT_C = "fault-cont-c";
    public static final int CONT_B_PER_TENANT = 2;

    /** The jobs {@code /fault/submit-job} may submit, with parameters of the caller's. */
    public static final java.util.Set<String> CONTROL_JOBS = java.util.Set.of(PAUSE_JOB, ITEMS_JOB);

    /** The jobs the storm submitter may submit. */
    public static final java.util.Set<String> STORM_JOBS = java.util.Set.of(JOB, CAPPED_JOB, SHARDED_JOB, LIMIT_A, LIMIT_B);

    @Produces
    Policy storm() {
        return Policy.named(POLICY)
                .governs(JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(CONCURRENCY))
                .build();
    }

    @Produces
    Policy capped() {
        return Policy.named(CAPPED_POLICY)
                .governs(CAPPED_JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(CONCURRENCY))
                .capacity(CAPPED_CAPACITY)
                .build();
    }

    @Produces
    Policy sharded() {
        return Policy.named(SHARDED_POLICY)
                .governs(SHARDED_JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .shardBy(ctx -> shardOf((String) ctx.get("tenant")))
                .gate(Gate.concurrency(CONCURRENCY))
                .build();
    }

    /** The shard of a storm tenant ({@code t00}, {@code t01}, …): {@code even} or {@code odd} by its number. */
    public static String shardOf(String tenant) {
        return Integer.parseInt(tenant.substring(1)) % 2 == 0 ? EVEN : ODD;
    }

    @Produces
    io.dispatchpolicy.spi.Limit api() {
        return io.dispatchpolicy.spi.Limit.named(LIMIT).perKey("tenant").concurrency(LIMIT_PER_TENANT).totalConcurrency(LIMIT_IN_ALL)
                .build();
    }

    @Produces
    Policy limitA() {
        return byTenant(LIMIT_A).limit(LIMIT).build();
    }

    @Produces
    Policy limitB() {
        return byTenant(LIMIT_B).limit(LIMIT).build();
    }

    @Produces
    Policy continuedA() {
        return byTenant(CONT_A).gate(io.dispatchpolicy.spi.Gate.concurrency(4))
                .retry(io.dispatchpolicy.spi.Retries.fixed(java.time.Duration.ZERO).maxRetries(1)).build();
    }

    @Produces
    Policy continuationB() {
        return byTenant(CONT_B).gate(io.dispatchpolicy.spi.Gate.concurrency(CONT_B_PER_TENANT)).build();
    }

    @Produces
    Policy continuationC() {
        return byTenant(CONT_C).capacity(1).build();
    }

    /** A policy of the job of the same name, partitioned by its {@code tenant} parameter. */
    private static Policy.Builder byTenant(String name) {
        return Policy.named(name).governs(name)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"));
    }

    @Produces
    Policy pausing() {
        return Policy.named(PAUSE_POLICY).governs(PAUSE_JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .build();
    }

    @Produces
    Policy unique() {
        return Policy.named(UNIQUE_POLICY).governs(UNIQUE_JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .uniqueBy("order")
                .build();
    }

    @Produces
    Policy items() {
        return Policy.named(ITEMS_POLICY).governs(ITEMS_JOB)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .itemThrottle(ITEM_RATE, Duration.ofSeconds(1))
                .build();
    }

    @Produces
    Policy retrying() {
        return Policy.named(RETRY_POLICY)
                .governs(FAILING_JOB)
                .partitionBy(ctx -> "all")
                .retry(Retries.fixed(RETRY_DELAY).maxRetries(1))
                .build();
    }
}
