package io.dispatchpolicy.staging.demotion;

import io.dispatchpolicy.domain.lane.DemotedPlacement;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Demotion;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Demotion of noisy tenants at submission (sidekiq-fair-tenant's rule, ADR 0011): counts a submission's
 * jobs for their tenants, in the submitting transaction and before they are staged, and places each in
 * the lane its tenant's count gives it when the call lets demotion move it. The counting statement
 * holds each tenant's count rows until the transaction ends, so two concurrent submitters of one tenant
 * are counted one after the other and each sees the other's jobs: the count is exact. Staging itself
 * knows nothing of it: it stages jobs in the lanes they come in. Retries never pass here, so they are
 * not counted.
 */
@ApplicationScoped
public class NoisyTenants {

    private static final Logger LOG = Logger.getLogger(NoisyTenants.class.getName());
    private static final long WARN_EVERY_MS = 60_000;

    @Inject
    PolicyRegistry registry;

    @Inject
    Jdbc jdbc;

    private final Map<String, Long> lastWarned = new ConcurrentHashMap<>();

    /**
     * The jobs, counted for their tenants and each in the lane its count gives it; the jobs as they came
     * when the policy has no demotion rules in force or none of them names a tenant (the common case
     * costs no statement).
     *
     * @param effective       the policy's settings in force, as the submission read them (empty: held, use the declaration)
     * @param callerNamedLane the caller chose the lane: counted, but moved only if the policy says demotion overrides it
     */
    public List<Submission> place(Policy declared, Optional<EffectivePolicy> effective, List<Submission> submissions,
                                  boolean callerNamedLane) {
        if (!registry.mayDemote(declared)) {
            return submissions; // the common case
        }
        List<Demotion> rules = effective.map(EffectivePolicy::demotions).orElse(declared.demotions());
        if (rules.isEmpty()) {
            return submissions;
        }
        long uncounted = submissions.stream().filter(s -> s.tenant() == null).count();
        if (uncounted > 0) {
            warnAtMostOnceAMinute(declared.name(), uncounted);
        }
        if (uncounted == submissions.size()) {
            return submissions;
        }
        Map<String, Integer> perTenant = DemotedPlacement.tally(submissions, new TreeMap<>(Jdbc::byCodePoint));
        Map<String, int[]> windows = TenantCounts.count(jdbc, declared.name(), perTenant, rules);
        boolean moves = !callerNamedLane || declared.demotionOverridesLane();
        return moves ? DemotedPlacement.place(submissions, rules, windows) : submissions;
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
