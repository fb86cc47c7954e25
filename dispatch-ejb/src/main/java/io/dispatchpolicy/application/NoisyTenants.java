package io.dispatchpolicy.application;

import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.TenantCountRepository;
import io.dispatchpolicy.infrastructure.persistence.TenantCountRepository.Demoted;
import io.dispatchpolicy.spi.Demotion;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Demotion of noisy tenants at submission (sidekiq-fair-tenant's rule, ADR 0011): each job is counted
 * for its tenant, and a job whose tenant's count in a rule's window exceeds the rule's threshold goes
 * to the rule's lane — the last matching rule's. Counts live in PostgreSQL, so every node sees the same;
 * a bulk call counts each of its jobs, in order. Retries never pass here, so they are not counted.
 */
@ApplicationScoped
public class NoisyTenants {

    private static final Logger LOG = Logger.getLogger(NoisyTenants.class.getName());
    private static final long WARN_EVERY_MS = 60_000;

    @Inject
    PolicyRegistry registry;

    @Inject
    TenantCountRepository counts;

    private final Map<String, Long> lastWarned = new ConcurrentHashMap<>();

    /**
     * Counts the submissions and returns them with their lanes after demotion (the same list when the
     * policy has no rules).
     *
     * @param effective       the policy's settings in force, as the submission read them (empty: held, use the declaration)
     * @param callerNamedLane the caller chose the lane: counted, but moved only if the policy says demotion overrides it
     */
    public List<Submission> demote(Policy declared, Optional<EffectivePolicy> effective, List<Submission> submissions,
                                   boolean callerNamedLane) {
        if (!registry.mayDemote(declared)) {
            return submissions; // the common case
        }
        List<Demotion> rules = effective.map(EffectivePolicy::demotions).orElse(declared.demotions());
        if (rules.isEmpty()) {
            return submissions;
        }
        Map<String, Integer> perTenant = new TreeMap<>(); // one order for every call: their row locks never cross
        int uncounted = 0;
        for (Submission s : submissions) {
            if (s.tenant() == null) {
                uncounted++;
            } else {
                perTenant.merge(s.tenant(), 1, Integer::sum);
            }
        }
        if (uncounted > 0) {
            warnAtMostOnceAMinute(declared.name(), uncounted);
        }
        if (perTenant.isEmpty()) {
            return submissions;
        }
        List<Integer> resolutions = rules.stream().map(Demotion::resolutionSeconds).distinct().sorted().toList();
        List<int[]> windows = rules.stream().map(r -> new int[] {r.resolutionSeconds(), (int) r.per().toSeconds()}).toList();
        Map<String, long[]> inWindow = counts.addAndCount(declared.name(), new ArrayList<>(perTenant.keySet()),
                new ArrayList<>(perTenant.values()), resolutions, windows);
        if (callerNamedLane && !declared.demotionOverridesLane()) {
            return submissions;
        }
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Demoted> demoted = new TreeMap<>();
        List<Submission> placed = new ArrayList<>(submissions.size());
        for (Submission s : submissions) {
            if (s.tenant() == null) {
                placed.add(s);
                continue;
            }
            // the i-th of this call's n jobs of the tenant sees the window without the n - i after it
            int n = perTenant.get(s.tenant());
            int i = seen.merge(s.tenant(), 1, Integer::sum);
            long[] totals = inWindow.get(s.tenant());
            Demotion winner = null;
            long count = 0;
            for (int r = 0; r < rules.size(); r++) {
                long c = totals[r] - n + i;
                if (c > rules.get(r).threshold()) {
                    winner = rules.get(r);
                    count = c;
                }
            }
            if (winner == null) {
                placed.add(s);
            } else {
                placed.add(s.inLane(winner.lane()));
                demoted.put(s.tenant(), new Demoted(s.tenant(), winner.lane(), winner.describe(), (int) Math.min(Integer.MAX_VALUE, count),
                        (int) winner.per().toSeconds()));
            }
        }
        counts.demoted(declared.name(), new ArrayList<>(demoted.values()));
        return placed;
    }

    private void warnAtMostOnceAMinute(String policy, int jobs) {
        long now = System.currentTimeMillis();
        long warnedAt = lastWarned.compute(policy, (k, previous) -> previous == null || now - previous >= WARN_EVERY_MS ? now : previous);
        if (warnedAt == now) {
            LOG.warning(() -> "Policy '" + policy + "' has demotion rules, but its tenant function named no tenant for "
                    + jobs + " job(s) of a submission: they are neither counted nor demoted (logged at most once a minute)");
        }
    }
}
