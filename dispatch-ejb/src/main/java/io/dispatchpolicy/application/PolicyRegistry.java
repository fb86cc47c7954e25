package io.dispatchpolicy.application;

import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The policies declared as CDI producers of {@link Policy}, indexed by name and by governed job.
 * Declaration mistakes (two policies with one name, a job governed twice, a job XML the engine cannot
 * see) fail the deployment.
 */
@ApplicationScoped
public class PolicyRegistry {

    @Inject
    @Any
    Instance<Policy> declared;

    @Inject
    JobRuntime runtime;

    private Map<String, Policy> byName;
    private Map<String, Policy> byJob;

    @PostConstruct
    void index() {
        Map<String, Policy> names = new LinkedHashMap<>();
        Map<String, Policy> jobs = new LinkedHashMap<>();
        for (Policy policy : declared) {
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
        byName = Collections.unmodifiableMap(names);
        byJob = Collections.unmodifiableMap(jobs);
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
}
