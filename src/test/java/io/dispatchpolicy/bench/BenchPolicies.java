package io.dispatchpolicy.bench;

import io.dispatchpolicy.spi.FairnessMeasure;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Limit;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;

import static io.dispatchpolicy.it.TestPolicies.byTenantWith;

/** Pass-through policies (partitioned, no gates) for throughput, and a gated one for the storm. */
@ApplicationScoped
public class BenchPolicies {

    static final int BUDGET = 500;

    @Produces
    Policy stage() {
        return byTenantWith("bench-stage").build();
    }

    /** As bench-stage, every job unique by its {@code order} parameter (ADR 0036): a key claimed per job. */
    @Produces
    Policy stageUnique() {
        return byTenantWith("bench-stage-unique").unique(io.dispatchpolicy.spi.KeyFunction.parameters("order"),
                io.dispatchpolicy.spi.Uniqueness.WHILE_LIVE).build();
    }

    /** As bench-flat, for the million jobs past their deadline that the claim must not read one by one. */
    @Produces
    Policy flatExpired() {
        return byTenantWith("bench-flat-expired").admissionBatchSize(1).build();
    }

    /** As bench-stage, with the lanes of bench-stage-demote but no rule: what lanes alone cost a submission. */
    @Produces
    Policy stageLanes() {
        return byTenantWith("bench-stage-lanes").lane("default", 9).lane("slow", 1).build();
    }

    /** As bench-stage, with lanes and a demotion rule: every submission is counted for its tenant. */
    @Produces
    Policy stageDemote() {
        return byTenantWith("bench-stage-demote").lane("default", 9).lane("slow", 1).demote(100, Duration.ofMinutes(1), "slow")
                .build();
    }

    /** Item-throttled chunk jobs (issue 35): one tenant's jobs read at most ITEM_RATE items a second together. */
    static final int ITEM_RATE = 200;

    @Produces
    Policy items() {
        return byTenantWith("bench-items").itemThrottle(ITEM_RATE, java.time.Duration.ofSeconds(1)).build();
    }

    @Produces
    Policy endToEnd() {
        return byTenantWith("bench-e2e").build();
    }

    /** As bench-e2e, with a tick budget that binds: the baseline of the lanes case. */
    @Produces
    Policy endToEndBudget() {
        return byTenantWith("bench-e2e-budget").tickAdmissionBudget(BUDGET).build();
    }

    /** The same budget, shared by three lanes 6 : 3 : 1. */
    @Produces
    Policy endToEndLanes() {
        return byTenantWith("bench-e2e-lanes").tickAdmissionBudget(BUDGET).lane("critical", 6).lane("default", 3)
                .lane("bulk", 1).build();
    }

    @Produces
    Policy endToEndChunk() {
        return byTenantWith("bench-e2e-chunk").build();
    }

    /** Pass-through, for admission by 1, 2 or 4 tick workers. */
    @Produces
    Policy workers() {
        return byTenantWith("bench-workers").build();
    }

    /** Pass-through, for the soak (no-op and chunk jobs). */
    @Produces
    Policy soak() {
        return byTenantWith("bench-soak").governs("bench-soak-chunk").build();
    }

    /** One job per partition per iteration, so iterations do equal work whatever the backlog. */
    @Produces
    Policy flat() {
        return byTenantWith("bench-flat").admissionBatchSize(1).build();
    }

    /** As bench-flat, fair by usage (ADR 0048): the claim reads each claimed partition's running usage. */
    @Produces
    Policy flatUsage() {
        return byTenantWith("bench-flat-usage").admissionBatchSize(1).fairnessBy(FairnessMeasure.USAGE).build();
    }

    /** One policy gate that never binds: the baseline of admission through named limits (issue 38). */
    @Produces
    Policy endToEndGate() {
        return byTenantWith("bench-e2e-gate").gate(Gate.concurrency(100_000)).build();
    }

    /** Two named limits that never bind (ADR 0049): per tenant and in all, and a total rate. */
    @Produces
    Limit benchApi() {
        return Limit.named("bench-api").perKey("tenant").concurrency(100_000).totalConcurrency(1_000_000).build();
    }

    @Produces
    Limit benchApiRate() {
        return Limit.named("bench-api-rate").totalThrottle(1_000_000, Duration.ofSeconds(1)).build();
    }

    @Produces
    Policy endToEndLimits() {
        return byTenantWith("bench-e2e-limits").limit("bench-api").limit("bench-api-rate").build();
    }

    @Produces
    Policy latency() {
        return byTenantWith("bench-latency").build();
    }

    /** Three slots per tenant (the default 1 s full-backoff): a freed slot must be refilled at once. */
    @Produces
    Policy slots() {
        return byTenantWith("bench-slots").gate(Gate.concurrency(3)).build();
    }

    @Produces
    Policy oneSlot() {
        return byTenantWith("bench-slot1").gate(Gate.concurrency(1)).build();
    }

    /**
     * The storm's policy with a capacity of 10 (the batch threads), lanes 9 : 1, and a tenant past 100
     * submissions a minute demoted to the slow lane.
     */
    @Produces
    Policy stormLanes() {
        return byTenantWith("bench-storm-lanes").gate(Gate.concurrency(5)).tickAdmissionBudget(200).capacity(10)
                .lane("default", 9).lane("slow", 1).demote(100, Duration.ofMinutes(1), "slow").build();
    }

    /** Each tenant at most 5 jobs at once, and at most 200 admissions per iteration shared fairly. */
    @Produces
    Policy storm() {
        return byTenantWith("bench-storm").gate(Gate.concurrency(5)).tickAdmissionBudget(200).build();
    }
}
