package io.dispatchpolicy.staging;

import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.StagingRepository.Demotions;
import io.dispatchpolicy.spi.Demotion;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Demotion of noisy tenants at submission (sidekiq-fair-tenant's rule, ADR 0011): decides whether a
 * submission's jobs are counted for their tenants, and whether the count may move them to a rule's
 * lane. The staging statement itself counts and places them (so a tenant's count rows are locked only
 * from that statement to the commit, like its partition rows); retries never pass here, so they are
 * not counted.
 */
@ApplicationScoped
public class NoisyTenants {

    private static final Logger LOG = Logger.getLogger(NoisyTenants.class.getName());
    private static final long WARN_EVERY_MS = 60_000;

    @Inject
    PolicyRegistry registry;

    private final Map<String, Long> lastWarned = new ConcurrentHashMap<>();

    /**
     * How the staging statement counts these submissions: empty when the policy has no demotion rules in
     * force or none of the jobs names a tenant.
     *
     * @param effective       the policy's settings in force, as the submission read them (empty: held, use the declaration)
     * @param callerNamedLane the caller chose the lane: counted, but moved only if the policy says demotion overrides it
     */
    public Optional<Demotions> counting(Policy declared, Optional<EffectivePolicy> effective, List<Submission> submissions,
                                        boolean callerNamedLane) {
        if (!registry.mayDemote(declared)) {
            return Optional.empty(); // the common case
        }
        List<Demotion> rules = effective.map(EffectivePolicy::demotions).orElse(declared.demotions());
        if (rules.isEmpty()) {
            return Optional.empty();
        }
        long uncounted = submissions.stream().filter(s -> s.tenant() == null).count();
        if (uncounted > 0) {
            warnAtMostOnceAMinute(declared.name(), uncounted);
        }
        if (uncounted == submissions.size()) {
            return Optional.empty();
        }
        return Optional.of(new Demotions(rules, !callerNamedLane || declared.demotionOverridesLane()));
    }

    private void warnAtMostOnceAMinute(String policy, long jobs) {
        long now = System.currentTimeMillis();
        long warnedAt = lastWarned.compute(policy, (k, previous) -> previous == null || now - previous >= WARN_EVERY_MS ? now : previous);
        if (warnedAt == now) {
            LOG.warning(() -> "Policy '" + policy + "' has demotion rules, but its tenant function named no tenant for "
                    + jobs + " job(s) of a submission: they are neither counted nor demoted (logged at most once a minute)");
        }
    }
}
