package io.dispatchpolicy.observe;

import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.Map;

/**
 * Samples the per-policy figures only the database knows (staged, scheduled, parked, in flight, waiting in a
 * shard no node serves, tenants demoted, up to {@link #DEMOTED_COUNTED}; whether a bad setting holds the policy)
 * into gauges (what the shipped alerts read, ADR 0040), every {@link #EVERY_MS}, by this node's maintenance (a database that cannot answer is tried on the next interval). Every node
 * exports the same cluster-wide values: aggregate them with {@code max}, not {@code sum}.
 */
@ApplicationScoped
public class MetricsSampler {

    /** How often the node's maintenance samples (a maintenance task, so a tick never waits on it). */
    public static final long EVERY_MS = 10_000;
    static final int DEMOTED_COUNTED = 10_000;

    @Inject
    PolicyFiguresRepository figures;

    @Inject
    EngineMetrics metrics;

    @Inject
    DemotedTenants demotedTenants;

    @Inject
    PolicyRegistry registry;

    @Inject
    HeldPolicies held;

    @Inject
    DispatchSettings settings;



    /** Samples now; a database that cannot answer throws. */
    public void sampleNow() {
        Map<String, Map<String, Long>> sampled = figures.read();
        sampled.put("dispatch.jobs.unserved", figures.unserved(settings.inflightStaleAfter(), settings.heartbeatInterval().multipliedBy(2)));
        Map<String, Long> heldNow = new HashMap<>();
        for (Policy policy : registry.all()) {
            heldNow.put(policy.name(), held.problem(policy.name()).isPresent() ? 1L : 0L);
        }
        sampled.put("dispatch.policy.held", heldNow);
        Map<String, Long> demoted = new HashMap<>();
        for (Policy policy : registry.all()) {
            if (registry.mayDemote(policy)) {
                // the console's reading of the counts (ADR 0011), counted up to DEMOTED_COUNTED
                demoted.put(policy.name(), (long) demotedTenants.demoted(policy.name(), held.effectiveIfDeclared(policy.name())
                        .map(EffectivePolicy::demotions).orElse(policy.demotions()), DEMOTED_COUNTED).size());
            }
        }
        sampled.put("dispatch.tenants.demoted", demoted);
        metrics.sampled(sampled);
    }
}
