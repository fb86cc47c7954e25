package io.dispatchpolicy.policy;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.spi.DeclaredGate;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Param;
import io.dispatchpolicy.spi.Demotion;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryStrategy;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The policies: those declared as CDI producers of {@link Policy}, and those declared entirely in
 * standalone.xml ({@code dispatch.policy.<name>.jobs}, {@code .partition-by}, {@code .gates}, read by
 * {@link PolicySettings}), indexed by name and by governed job. Declaration mistakes — two policies with one name, a job governed
 * twice, a job XML the engine cannot see, an unknown or invalid {@code dispatch.policy.*} property —
 * fail the deployment.
 */
@ApplicationScoped
public class PolicyRegistry {

    @Inject
    @Any
    Instance<Policy> declared;

    @Inject
    JobRuntime runtime;

    @Inject
    PolicySettings policySettings;

    @Inject
    LimitRegistry limits;

    private Map<String, Policy> byName;
    private Map<String, Policy> byJob;
    private List<String> sortedNames;
    private final java.util.Set<String> configured = new java.util.HashSet<>();

    @PostConstruct
    void index() {
        Map<String, Policy> names = new LinkedHashMap<>();
        Map<String, Policy> jobs = new LinkedHashMap<>();
        List<Policy> all = new java.util.ArrayList<>();
        declared.forEach(all::add);
        List<Policy> fromSettings = policySettings.configuredPolicies();
        fromSettings.forEach(p -> configured.add(p.name()));
        all.addAll(fromSettings);
        all.stream().filter(p -> p.name().equals(Policy.SCHEDULES)).findAny().ifPresent(p -> {
            throw new PolicyDeclarationException("The policy name '" + Policy.SCHEDULES + "' is reserved for the engine's "
                    + "pass-through policy of schedules whose job no policy governs");
        });
        all.add(Policy.forUngovernedSchedules()); // by name only: it governs no job
        for (Policy policy : all) {
            Policy clash = names.putIfAbsent(policy.name(), policy);
            if (clash != null) {
                throw new PolicyDeclarationException("Two policies are named '" + policy.name() + "'");
            }
            for (String job : policy.jobNames()) {
                Policy other = jobs.putIfAbsent(job, policy);
                if (other != null) {
                    throw new PolicyDeclarationException("Job '" + job + "' is governed by both '" + other.name()
                            + "' and '" + policy.name() + "'");
                }
                if (!runtime.knowsJob(job)) {
                    throw new PolicyDeclarationException("Policy '" + policy.name() + "' governs job '" + job
                            + "', but no META-INF/batch-jobs/" + job + ".xml is visible to the dispatch engine");
                }
            }
        }
        String limitProblem = limits.declarationProblem(all);
        if (limitProblem != null) {
            throw new PolicyDeclarationException(limitProblem);
        }
        byName = Collections.unmodifiableMap(names);
        byJob = Collections.unmodifiableMap(jobs);
        sortedNames = byName.keySet().stream().sorted().toList();
    }

    /** The policy governing this job XML name (with or without {@code .xml}), if any. */
    public Optional<Policy> forJob(String jobXmlName) {
        return jobXmlName == null ? Optional.empty() : Optional.ofNullable(byJob.get(Policy.jobName(jobXmlName)));
    }

    public Optional<Policy> named(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public Collection<Policy> all() {
        return byName.values();
    }

    /** The policies' names, sorted (for the console's filters). */
    public List<String> names() {
        return sortedNames;
    }

    /** The policy with its current {@code dispatch.policy.<name>.*} overrides; read on every call. */
    public EffectivePolicy effective(String name) {
        return effectiveIfDeclared(name).orElseThrow(() -> new IllegalArgumentException("No policy named '" + name + "'"));
    }

    /**
     * As {@link #effective}, or empty when this deployment declares no such policy (rows staged under
     * a policy since removed).
     */
    public Optional<EffectivePolicy> effectiveIfDeclared(String name) {
        return named(name).map(policySettings::effective);
    }

    /** Names of the policies that have lanes, declared or from standalone.xml: each iteration claims their lanes. */
    public List<String> lanedPolicyNames() {
        List<String> laned = new ArrayList<>();
        for (String name : sortedNames) {
            if (hasLanes(byName.get(name))) {
                laned.add(name);
            }
        }
        return laned;
    }

    /**
     * Whether the policy has lanes now, from one property read: the submission path asks this before
     * it reads all of a policy's settings, which only a policy with lanes needs.
     */
    public boolean hasLanes(Policy p) {
        return policySettings.hasLanes(p);
    }

    /** Whether the policy may have demotion rules now (declared, or a {@code demote} property), from one property read. */
    public boolean mayDemote(Policy p) {
        return policySettings.mayDemote(p);
    }

    /** What is wrong with a {@code dispatch.policy.*} property's name; empty when it names a declared policy's setting. */
    public Optional<String> nameProblem(String property) {
        if (property.startsWith(LimitRegistry.PREFIX)) {
            return limits.nameProblem(property);
        }
        return policySettings.nameProblem(property, byName);
    }

    /** Checks every policy's settings; called at deployment. */
    public void validateSettings() {
        policySettings.validate(byName, configured);
    }
}
