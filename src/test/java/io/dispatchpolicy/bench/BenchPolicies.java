package io.dispatchpolicy.bench;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import static io.dispatchpolicy.it.TestPolicies.byTenantWith;

/** Pass-through policies (partitioned, no gates) for throughput, and a gated one for the storm. */
@ApplicationScoped
public class BenchPolicies {

    @Produces
    Policy stage() {
        return byTenantWith("bench-stage").build();
    }

    @Produces
    Policy endToEnd() {
        return byTenantWith("bench-e2e").build();
    }

    @Produces
    Policy endToEndChunk() {
        return byTenantWith("bench-e2e-chunk").build();
    }

    /** One job per partition per iteration, so iterations do equal work whatever the backlog. */
    @Produces
    Policy flat() {
        return byTenantWith("bench-flat").admissionBatchSize(1).build();
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

    /** Each tenant at most 5 jobs at once, and at most 200 admissions per iteration shared fairly. */
    @Produces
    Policy storm() {
        return byTenantWith("bench-storm").gate(Gate.concurrency(5)).tickAdmissionBudget(200).build();
    }
}
