package io.dispatchpolicy.policy;

import io.dispatchpolicy.config.InvalidSettingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Policies held because a {@code dispatch.policy.*} value written at runtime cannot be used: their
 * partitions are denied {@code invalid_settings} until the property is fixed. The tick and the
 * console ask here rather than {@link PolicyRegistry#effective} directly, so a bad value is logged
 * once when it appears (and once per further distinct bad value), once when it is fixed, and never
 * as a stack trace per tick.
 */
@ApplicationScoped
public class HeldPolicies {

    private static final Logger LOG = Logger.getLogger(HeldPolicies.class.getName());

    @Inject
    PolicyRegistry registry;

    private final Map<String, InvalidSettingException> held = new ConcurrentHashMap<>();

    /** Per policy with lanes, the lanes its settings last gave: where its jobs may wait while it is held. */
    private final Map<String, List<io.dispatchpolicy.spi.Lane>> lastLanes = new ConcurrentHashMap<>();

    /** The policy with its current settings; empty while a setting is invalid (the policy is held). */
    public Optional<EffectivePolicy> effective(String policyName) {
        try {
            EffectivePolicy policy = registry.effective(policyName);
            if (policy.hasLanes()) {
                lastLanes.put(policyName, policy.lanes()); // the list as parsed: no copy on the tick's path
            }
            if (held.remove(policyName) != null) {
                LOG.info(() -> "Policy '" + policyName + "' has valid settings again and is no longer held");
            }
            return Optional.of(policy);
        } catch (InvalidSettingException e) {
            InvalidSettingException previous = held.put(policyName, e);
            if (previous == null || !e.getMessage().equals(previous.getMessage())) {
                LOG.warning(() -> "Policy '" + policyName + "' is held until its settings are fixed: " + e.getMessage());
            }
            return Optional.empty();
        }
    }

    /**
     * As {@link #effective}, for a name that may not be declared by this deployment (rows staged under
     * a policy since removed): empty then too. Everything that reads a policy's settings off the tick —
     * recovery, force-admit, completions, the console — asks here, so a held policy never fails them.
     */
    public Optional<EffectivePolicy> effectiveIfDeclared(String policyName) {
        return policyName != null && registry.named(policyName).isPresent() ? effective(policyName) : Optional.empty();
    }

    /**
     * The lanes a held policy's jobs may wait in: those it declares and those its settings gave it while
     * they were last valid on this node. The tick claims them only to say why they wait.
     */
    public Set<String> lanesWhileHeld(String policyName) {
        Set<String> lanes = new LinkedHashSet<>();
        registry.named(policyName).ifPresent(p -> p.lanes().forEach(l -> lanes.add(l.name())));
        lastLanes.getOrDefault(policyName, List.of()).forEach(l -> lanes.add(l.name()));
        return lanes;
    }

    /** Why the policy is held now, or empty when its settings are valid. */
    public Optional<InvalidSettingException> problem(String policyName) {
        return effective(policyName).isPresent() ? Optional.empty() : Optional.ofNullable(held.get(policyName));
    }
}
