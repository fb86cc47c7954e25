package io.dispatchpolicy.bench;

import io.dispatchpolicy.it.TestPolicies;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;


/** Pass-through policies (partitioned, no gates) for throughput, and a gated one for the storm. */
@ApplicationScoped
public class BenchPolicies {

    private static Policy.Builder byTenant(String name) {
        return TestPolicies.byTenantWith(name);
    }

    @Produces
    Policy stage() {
        return byTenant("bench-stage").build();
    }

    @Produces
    Policy endToEnd() {
        return byTenant("bench-e2e").build();
    }

    @Produces
    Policy endToEndChunk() {
        return byTenant("bench-e2e-chunk").build();
    }

    /** One job per partition per iteration, so iterations do equal work whatever the backlog. */
    @Produces
    Policy flat() {
        return byTenant("bench-flat").admissionBatchSize(1).build();
    }

    @Produces
    Policy latency() {
        return byTenant("bench-latency").build();
    }

    /** Each tenant at most 5 jobs at once, and at most 200 admissions per iteration shared fairly. */
    @Produces
    Policy storm() {
        return byTenant("bench-storm").gate(Gate.concurrency(5)).tickAdmissionBudget(200).build();
    }
}
