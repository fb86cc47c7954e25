package io.dispatchpolicy.application;

import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.infrastructure.metrics.EngineMetrics;
import io.dispatchpolicy.infrastructure.persistence.DemotedTenants;
import io.dispatchpolicy.infrastructure.persistence.PolicyFiguresRepository;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Samples the per-policy figures only the database knows (staged, scheduled, parked, in flight,
 * tenants demoted, up to {@link #DEMOTED_COUNTED}) into gauges, at most every {@link #EVERY_MS}, from this node's tick. Every node
 * exports the same cluster-wide values: aggregate them with {@code max}, not {@code sum}.
 */
@ApplicationScoped
public class MetricsSampler {

    private static final Logger LOG = Logger.getLogger(MetricsSampler.class.getName());
    static final long EVERY_MS = 10_000;
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

    private final AtomicLong lastSampled = new AtomicLong();

    /** Samples when the last sample is older than {@link #EVERY_MS}; a database that cannot answer is tried next time. */
    public void sampleIfDue() {
        long now = System.currentTimeMillis();
        long last = lastSampled.get();
        if (now - last < EVERY_MS || !lastSampled.compareAndSet(last, now)) {
            return;
        }
        try {
            sampleNow();
        } catch (RuntimeException e) {
            // the tick reports an unreachable database; the gauges keep their last values meanwhile
            LOG.log(Level.FINE, "Metrics not sampled this time", e);
        }
    }

    /** Samples now; a database that cannot answer throws. */
    public void sampleNow() {
        Map<String, Map<String, Long>> sampled = figures.read();
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
