package io.dispatchpolicy.faults.harness;

import io.dispatchpolicy.faults.app.FaultPolicies;

/**
 * One governed job of a scenario and what its invariants check: the job XML its storm submits, the
 * policy that governs it, the per-tenant cap of that policy's concurrency gate, and its policy-wide
 * {@code capacity(n)} when it has one (checked cluster-wide over JBeret's start and end times).
 *
 * @param capacity null for a policy without a capacity
 */
public record Workload(String job, String policy, int concurrency, Integer capacity) {

    /** {@code fault-job} under {@code fault-storm}: the storm of scenarios (a)–(e). */
    public static final Workload STORM = new Workload(FaultPolicies.JOB, FaultPolicies.POLICY, FaultPolicies.CONCURRENCY, null);

    /** {@code fault-capped-job} under {@code fault-capped}: the storm of scenario (f), with a capacity that binds. */
    public static final Workload CAPPED = new Workload(FaultPolicies.CAPPED_JOB, FaultPolicies.CAPPED_POLICY,
            FaultPolicies.CONCURRENCY, FaultPolicies.CAPPED_CAPACITY);

    /**
     * Scenario (m)'s two jobs, each under a policy of its own sharing one named limit; the per-tenant figure checked per job
     * is the limit's (the limit across both jobs is the scenario's own check).
     */
    public static final Workload LIMIT_A = new Workload(FaultPolicies.LIMIT_A, FaultPolicies.LIMIT_A, FaultPolicies.LIMIT_PER_TENANT,
            FaultPolicies.LIMIT_IN_ALL);
    public static final Workload LIMIT_B = new Workload(FaultPolicies.LIMIT_B, FaultPolicies.LIMIT_B, FaultPolicies.LIMIT_PER_TENANT,
            FaultPolicies.LIMIT_IN_ALL);

    /** {@code fault-sharded-job} under {@code fault-sharded}: scenario (g)'s jobs, sharded by tenant parity. */
    public static final Workload SHARDED = new Workload(FaultPolicies.SHARDED_JOB, FaultPolicies.SHARDED_POLICY,
            FaultPolicies.CONCURRENCY, null);
}
