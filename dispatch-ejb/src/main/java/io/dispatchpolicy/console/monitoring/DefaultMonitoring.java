package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.admission.GateStateCodec;
import io.dispatchpolicy.admission.PolicyStateRepository;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.gate.ResolvedGate;
import io.dispatchpolicy.domain.gate.CalendarQuota;
import io.dispatchpolicy.domain.gate.TokenBucket;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.Partition;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.domain.model.Overrides;
import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.partition.OverrideCodec;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.GateParameterException;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.upkeep.ExecutionRetention;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/** Assembles the read models; each figure is one query, none holds a lock. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class DefaultMonitoring implements Monitoring {

    static final int TOP = 5;
    static final int DEMOTED_SHOWN = 20;
    private static final java.time.format.DateTimeFormatter UNTIL =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(java.time.ZoneOffset.UTC);
    static final int STAGED_SHOWN = 25;
    static final int DENIALS_SHOWN = 500;

    @Inject
    MonitoringRepository repository;

    @Inject
    io.dispatchpolicy.notify.Webhooks webhooks;

    @Inject
    io.dispatchpolicy.notify.DeliveryRepository deliveries;

    @Inject
    io.dispatchpolicy.observe.DemotedTenants demotedTenants;

    @Inject
    PartitionBrowser browser;

    @Inject
    PolicyRegistry registry;

    @Inject
    io.dispatchpolicy.policy.SettingNames settingNames;

    @Inject
    PolicyStateRepository policyState;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    ThisNode node;

    @Inject
    DatabaseOutage outage;

    @Inject
    DispatchSettings settings;

    @Inject
    ExecutionRetention retention;

    @Override
    public List<String> policyNames() {
        return registry.names();
    }

    @Inject
    io.dispatchpolicy.policy.LimitRegistry limitRegistry;

    @Override
    public List<String> denialReasons() {
        List<String> reasons = new ArrayList<>(io.dispatchpolicy.domain.model.Denial.REASONS);
        for (String limit : limitRegistry.names()) {
            reasons.add(io.dispatchpolicy.domain.gate.SharedLimits.FULL + ":" + limit);
            reasons.add(io.dispatchpolicy.domain.gate.SharedLimits.THROTTLED + ":" + limit);
        }
        return reasons;
    }

    @Override
    public List<LimitView> limits() {
        java.util.Map<String, Long> inFlight = repository.limitInFlight();
        java.util.Map<String, Double> tokens = repository.limitTokens();
        java.util.Map<String, List<String>> usersByLimit = new java.util.HashMap<>();
        for (String policy : policyNames()) { // sorted, so each limit's users are
            try {
                registry.named(policy).map(limitRegistry::namesReferencedBy).orElse(List.of())
                        .forEach(limit -> usersByLimit.computeIfAbsent(limit, k -> new ArrayList<>()).add(policy));
            } catch (io.dispatchpolicy.config.InvalidSettingException e) {
                // a policy whose references cannot be read is held; the Policies page says why
            }
        }
        List<LimitView> views = new ArrayList<>();
        for (String name : limitRegistry.names()) {
            List<String> users = usersByLimit.getOrDefault(name, List.of());
            String values;
            String perKey = null;
            try {
                io.dispatchpolicy.spi.Limit limit = limitRegistry.limit(name).orElseThrow();
                values = describe(limit);
                perKey = limit.key();
            } catch (io.dispatchpolicy.config.InvalidSettingException e) {
                values = e.getMessage();
            }
            String prefix = name + "/";
            List<LimitView.KeyUse> keys = inFlight.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                    .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(java.util.Map.Entry.comparingByKey()))
                    .limit(LimitView.KEYS)
                    .map(e -> new LimitView.KeyUse(e.getKey().substring(prefix.length()), e.getValue(), tokens.get(e.getKey()))).toList();
            views.add(new LimitView(name, values, perKey, users, inFlight.getOrDefault(name, 0L), tokens.get(name), keys));
        }
        return views;
    }

    /** A limit's values in words: "5 per tenant · 10 per 1 s per tenant · 8 in all". */
    static String describe(io.dispatchpolicy.spi.Limit l) {
        List<String> parts = new ArrayList<>();
        if (l.concurrency() != null) {
            parts.add(l.concurrency() + " in flight per " + l.key());
        }
        if (l.rate() != null) {
            parts.add(number(l.rate()) + " per " + number(l.perSeconds()) + " s per " + l.key());
        }
        if (l.totalConcurrency() != null) {
            parts.add(l.totalConcurrency() + " in flight in all");
        }
        if (l.totalRate() != null) {
            parts.add(number(l.totalRate()) + " per " + number(l.totalPerSeconds()) + " s in all");
        }
        return String.join(" · ", parts);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    @Override
    public List<WebhookView> webhooks() {
        java.util.Map<String, io.dispatchpolicy.notify.DeliverySummary> counts = new java.util.HashMap<>();
        deliveries.summary().forEach(s -> counts.put(s.webhook(), s));
        java.util.Map<String, WebhookView> views = new java.util.TreeMap<>();
        for (io.dispatchpolicy.notify.Webhook w : webhooks.all()) {
            views.put(w.name(), view(w.name(), w, counts.get(w.name())));
        }
        counts.forEach((name, c) -> views.putIfAbsent(name, view(name, null, c)));
        return List.copyOf(views.values());
    }

    private static WebhookView view(String name, io.dispatchpolicy.notify.Webhook w, io.dispatchpolicy.notify.DeliverySummary c) {
        return new WebhookView(name, w == null ? null : shown(w.url()),
                w == null ? List.of() : w.events().stream().map(io.dispatchpolicy.notify.EventType::wire).toList(),
                w != null && w.secret().isPresent(), w == null ? 0 : w.maxAttempts(), c == null ? 0 : c.pending(),
                c == null ? 0 : c.delivered24h(), c == null ? 0 : c.failed24h(), c == null ? null : c.lastDelivered(),
                c == null ? null : c.lastError());
    }

    /**
     * A webhook's URL as a viewer may see it: scheme, host and port only. Chat and incident tools put the secret in the
     * path or the query (a Slack webhook's URL is its credential), and user info may hold a password.
     */
    static String shown(java.net.URI url) {
        String rest = (url.getRawPath() == null || url.getRawPath().isEmpty() || url.getRawPath().equals("/")) && url.getRawQuery() == null
                ? "/" : "/…";
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort()) + rest;
    }

    @Override
    public Summary summary() {
        List<String> declared = registry.names();
        long[] t = repository.totals(declared);
        long[] w = repository.windows();
        long[] discarded = repository.discarded();
        double rate1 = w[0] / 60.0;
        double rate5 = w[1] / 300.0;
        double rate15 = w[2] / 900.0;
        double busy = w[4] == 0 ? 0 : Math.min(1.0, w[3] / (double) w[4]);
        Double drain = rate5 > 0 ? t[0] / rate5 / 60.0 : null;
        double failureRate = w[5] == 0 ? 0 : w[6] / (double) w[5];
        List<TrendPoint> trend = repository.pendingTrend();
        OptionalDouble throughputTarget = settings.adapterThroughputTarget();
        Double target = throughputTarget.isPresent() ? throughputTarget.getAsDouble() : null;
        return new Summary(t[0], t[1], t[5], t[6], t[2], t[3], t[4], rate1, rate5, rate15, trend, direction(trend),
                repository.denialReasons(), busy, settings.tickMaxDuration().toMillis() / 1000.0, target, drain,
                failureRate, hints(busy, drain, failureRate, t[4], rate5, target, declared), nodeStatus(),
                repositoryHealth(), Instant.now(), discarded[0], discarded[1], repository.deniedNow(declared));
    }

    private RepositoryHealth repositoryHealth() {
        ExecutionRetention.Totals t = retention.totals();
        return new RepositoryHealth(t.instancesPruned(), t.executionsPruned(), t.lastPrunedAt(), t.oldestKept(),
                days(settings.executionRetention()) + " after completion, " + days(settings.failedExecutionRetention())
                        + " otherwise");
    }

    private static String days(Optional<Duration> retention) {
        if (retention.isEmpty()) {
            return "kept forever";
        }
        long seconds = retention.get().toSeconds();
        return seconds % 86_400 == 0 ? seconds / 86_400 + " d" : seconds % 3_600 == 0 ? seconds / 3_600 + " h" : seconds + " s";
    }

    private List<Hint> hints(double busy, Double drain, double failureRate, long partitions, double rate5, Double target,
                             List<String> declared) {
        List<Hint> hints = new ArrayList<>(Hints.of(busy, drain, failureRate, partitions, rate5, target));
        hints.addAll(Hints.undeclared(repository.undeclared(declared)));
        hints.addAll(Hints.unserved(repository.unservedShards(settings.inflightStaleAfter(),
                settings.heartbeatInterval().multipliedBy(2))));
        settingNames.current().forEach((name, problem) ->
                hints.add(Hint.warning("Setting " + name + " is ignored: " + problem + ". Fix or remove it (ADR 0023).")));
        return hints;
    }

    @Override
    public NodeStatus nodeStatus() {
        Instant now = Instant.now();
        Instant lastTick = node.lastTickAt().orElse(null);
        List<HeldPolicy> held = registry.names().stream().map(this::held).filter(java.util.Objects::nonNull).toList();
        return new NodeStatus(node.name(), lastTick, lastTick == null ? null : Duration.between(lastTick, now).toSeconds(),
                outage.downSince().orElse(null), held, node.shards().toString());
    }

    private HeldPolicy held(String policy) {
        return heldPolicies.problem(policy)
                .map(e -> new HeldPolicy(policy, e.property(), e.value(), e.getMessage())).orElse(null);
    }

    static String direction(List<TrendPoint> trend) {
        List<TrendPoint> sampled = trend.stream().filter(p -> p.pending() != null).toList(); // minutes no tick ran say nothing
        if (sampled.size() < 2) {
            return "flat";
        }
        long first = sampled.get(0).pending();
        long last = sampled.get(sampled.size() - 1).pending();
        long tolerance = Math.max(1, first / 20);
        return last > first + tolerance ? "up" : last < first - tolerance ? "down" : "flat";
    }

    @Override
    public List<PolicySummary> policies() {
        Map<String, long[]> totals = repository.policyTotals();
        Map<String, Long> inFlight = repository.policyInFlight();
        Map<String, Long> admitted = repository.policyAdmittedLast5Minutes();
        Set<String> paused = policyState.pausedPolicies();
        List<PolicySummary> rows = new ArrayList<>();
        for (Policy policy : registry.all()) {
            String name = policy.name();
            long[] t = totals.getOrDefault(name, new long[3]);
            if (Policy.SCHEDULES.equals(name) && t[0] == 0 && inFlight.getOrDefault(name, 0L) == 0 && !paused.contains(name)) {
                // the engine's own pass-through policy (schedules of ungoverned jobs): shown only while it holds work
                continue;
            }
            Optional<EffectivePolicy> effective = heldPolicies.effectiveIfDeclared(name); // once: it reads every setting
            List<LaneView> lanes = lanes(policy, effective); // demotion moves jobs between lanes: no lanes, no demoted tenants
            List<String> gates = effective.map(EffectivePolicy::describeGates).orElseGet(() -> EffectivePolicy.describeGates(policy, Map.of()));
            rows.add(new PolicySummary(name, List.copyOf(policy.jobNames()), gates, paused.contains(name),
                    t[0], t[1], t[2], inFlight.getOrDefault(name, 0L), capacity(policy, effective),
                    admitted.getOrDefault(name, 0L) / 300.0,
                    repository.policyDenials(name), repository.topPending(name, TOP), repository.topAdmitted(name, TOP),
                    effective.isEmpty() ? held(name) : null, lanes, lanes.isEmpty() ? List.of()
                            : demotedTenants.demoted(name, effective.map(EffectivePolicy::demotions).orElse(policy.demotions()),
                            DEMOTED_SHOWN).stream().map(d -> new DemotionView(d.tenant(), d.lane(), d.rule(), d.submissions(), d.until()))
                            .toList()));
        }
        rows.sort((a, b) -> a.name().compareTo(b.name()));
        return rows;
    }

    /** The lanes in force (a held policy's declared ones), with in-flight jobs and shares of admissions. */
    private List<LaneView> lanes(Policy policy, Optional<EffectivePolicy> effective) {
        List<Lane> lanes = effective.map(EffectivePolicy::lanes).orElse(policy.lanes());
        if (lanes.isEmpty()) {
            return List.of();
        }
        Map<String, long[]> admissions = repository.laneAdmissions(policy.name());
        Map<String, Long> inFlight = repository.laneInFlight(policy.name());
        long[] totals = new long[3];
        admissions.values().forEach(a -> {
            for (int i = 0; i < 3; i++) {
                totals[i] += a[i];
            }
        });
        List<LaneView> views = new ArrayList<>();
        for (Lane lane : lanes) {
            long[] a = admissions.getOrDefault(lane.name(), new long[3]);
            views.add(new LaneView(lane.name(), lane.weight(), lane.min(), lane.lendingLimit(), lane.borrowingLimit(),
                    inFlight.getOrDefault(lane.name(), 0L),
                    share(a[0], totals[0]), share(a[1], totals[1]), share(a[2], totals[2])));
        }
        return views;
    }

    private static Double share(long part, long total) {
        return total == 0 ? null : part / (double) total;
    }

    /** The capacity in force (a held policy's declared one). */
    private Integer capacity(Policy policy, Optional<EffectivePolicy> effective) {
        OptionalInt capacity = effective.map(EffectivePolicy::capacity).orElse(policy.capacity());
        return capacity.isPresent() ? capacity.getAsInt() : null;
    }

    @Override
    public List<Partition> partitions(PartitionQuery query) {
        return browser.page(query);
    }

    @Override
    public long countPartitions(PartitionQuery query) {
        return browser.count(query);
    }

    @Override
    public Optional<PartitionDetail> partition(long partitionId) {
        Partition p = browser.find(partitionId);
        if (p == null) {
            return Optional.empty();
        }
        String[] state = repository.partitionState(partitionId);
        if (state == null) {
            return Optional.empty();
        }
        Instant now = Instant.now();
        boolean declared = registry.named(p.getPolicyName()).isPresent();
        Optional<EffectivePolicy> policy = heldPolicies.effectiveIfDeclared(p.getPolicyName());
        HeldPolicy heldBy = declared && policy.isEmpty() ? held(p.getPolicyName()) : null;
        double halfLife = policy.flatMap(EffectivePolicy::fairnessHalfLife).map(d -> d.toMillis() / 1000.0)
                .orElse(DispatchSettings.DEFAULT_FAIRNESS_HALF_LIFE_SECONDS);
        double decayed = io.dispatchpolicy.domain.gate.DecayedAdmits.at(p.getDecayedAdmits(),
                p.getDecayedAdmitsAt() == null ? 0 : p.getDecayedAdmitsAt().toEpochMilli(), now.toEpochMilli(), halfLife);
        // An average that decays with time constant tau holds tau seconds' worth of admissions.
        double perMinute = decayed * Math.log(2) / halfLife * 60;
        Overrides gateOverrides = OverrideCodec.read(state[3]);
        Overrides laneOverrides = OverrideCodec.read(state[4]);
        return Optional.of(new PartitionDetail(p, state[0], gates(policy.map(e -> e.withGateOverrides(
                        gateOverrides.inForce(now.toEpochMilli()))), p, state, now),
                repository.partitionInFlight(partitionId), perMinute,
                heldBy != null ? "Its policy is held: " + heldBy.message() + ". Nothing is admitted until the setting is fixed."
                        : repository.pausedByJob(partitionId).map(j -> "Paused by its job (execution " + j.execution() + ") until "
                                + UNTIL.format(j.until()) + " (in " + Math.max(1, Duration.between(now, j.until()).toSeconds()) + " s): "
                                + j.reason() + ". Nothing of it is admitted on any node until then.")
                        .orElseGet(() -> waiting(p, declared, now, p.getScheduledCount() > 0 ? repository.nextDue(partitionId) : null)),
                repository.staged(partitionId, STAGED_SHOWN),
                overrides(policy, p, state[0], gateOverrides, laneOverrides, now.toEpochMilli()),
                policy.map(DefaultMonitoring::gateParams).orElse(Map.of())));
    }

    private static Map<String, List<String>> gateParams(EffectivePolicy policy) {
        Map<String, List<String>> params = new java.util.LinkedHashMap<>();
        policy.policy().gates().forEach(g -> params.put(g.id(), EffectivePolicy.paramsOf(g.gate())));
        return params;
    }

    /** The overrides in force for the partition: its key's gate parameters, then its lane's (ADR 0025). */
    private static List<OverrideView> overrides(Optional<EffectivePolicy> policy, Partition p, String contextJson,
                                                Overrides gates, Overrides lanes, long now) {
        List<OverrideView> views = new ArrayList<>();
        gates.byScope().forEach((gate, params) -> params.forEach((param, e) -> {
            if (e.inForce(now)) {
                views.add(new OverrideView("gate", gate, param, EffectivePolicy.number(e.value()),
                        policy.map(pol -> policyValue(pol, gate, param, contextJson)).orElse("-"),
                        e.untilMillis() == null ? null : Instant.ofEpochMilli(e.untilMillis()), e.by(), Instant.ofEpochMilli(e.atMillis())));
            }
        }));
        if (!p.getLane().isEmpty()) {
            lanes.byScope().getOrDefault(p.getLane(), Map.of()).forEach((param, e) -> {
                if (e.inForce(now)) {
                    String declared = policy.flatMap(pol -> pol.lanes().stream().filter(l -> l.name().equals(p.getLane())).findFirst())
                            .map(l -> Integer.toString("weight".equals(param) ? l.weight() : l.min())).orElse("-");
                    views.add(new OverrideView("lane", p.getLane(), param, EffectivePolicy.number(e.value()), declared,
                            e.untilMillis() == null ? null : Instant.ofEpochMilli(e.untilMillis()), e.by(), Instant.ofEpochMilli(e.atMillis())));
                }
            });
        }
        return views;
    }

    /** What the policy itself gives a gate parameter for this partition (standalone.xml's value over the declared one). */
    private static String policyValue(EffectivePolicy policy, String gate, String param, String contextJson) {
        try {
            for (ResolvedGate g : policy.resolveGates(JsonCodec.readScalars(contextJson))) {
                if (!g.id().equals(gate)) {
                    continue;
                }
                if (g instanceof ResolvedGate.Throttle t) {
                    return EffectivePolicy.number("rate".equals(param) ? t.rate() : t.perSeconds());
                } else if (g instanceof ResolvedGate.Quota q) {
                    return Long.toString(q.max());
                } else if (g instanceof ResolvedGate.Concurrency c) {
                    return "max".equals(param) ? Long.toString(c.max()) : EffectivePolicy.number(c.fullBackoff().toMillis() / 1000.0);
                } else {
                    AdaptiveCap.Params a = ((ResolvedGate.Adaptive) g).params();
                    return switch (param) {
                        case "initial-max" -> Integer.toString(a.initialMax());
                        case "target-lag-ms" -> EffectivePolicy.number(a.targetLagMs());
                        case "min" -> Integer.toString(a.min());
                        default -> a.ceiling() > 0 ? Integer.toString(a.ceiling()) : "none";
                    };
                }
            }
        } catch (GateParameterException e) {
            return "unusable: " + e.getMessage();
        }
        return "-";
    }

    private List<GateView> gates(Optional<EffectivePolicy> policy, Partition p, String[] state, Instant now) {
        if (policy.isEmpty()) {
            return List.of();
        }
        List<ResolvedGate> resolved;
        try {
            resolved = policy.get().resolveGates(JsonCodec.readScalars(state[0]));
        } catch (GateParameterException e) {
            return List.of(new GateView("-", e.getMessage(), "-"));
        }
        Map<String, TokenBucket.State> buckets = GateStateCodec.readBuckets(state[1]);
        Map<String, double[]> adaptive = repository.adaptive(Long.parseLong(state[2])); // kept per key, on its gate row
        List<GateView> views = new ArrayList<>();
        for (ResolvedGate gate : resolved) {
            if (gate instanceof ResolvedGate.Throttle t) {
                TokenBucket.State b = buckets.containsKey(t.id())
                        ? TokenBucket.refill(buckets.get(t.id()), t.rate(), t.perSeconds(), now.toEpochMilli()) : null;
                views.add(new GateView(t.id(), fmt("throttle %s per %s s", t.rate(), t.perSeconds()),
                        b == null ? "full (" + fmt("%s", TokenBucket.capacity(t.rate())) + " tokens)"
                                : fmt("%s tokens", Math.floor(b.tokens() * 100) / 100)));
            } else if (gate instanceof ResolvedGate.Quota q) {
                TokenBucket.State used = CalendarQuota.current(buckets.get(q.id()), q.period(), q.zone(), now.toEpochMilli());
                Instant resets = CalendarQuota.periodEnd(Instant.ofEpochMilli(used.atMillis()), q.period(), q.zone());
                views.add(new GateView(q.id(), "quota " + q.max() + " a " + q.period().label() + " from midnight in " + q.zone().getId(),
                        CalendarQuota.left(used, q.max()) + " of " + q.max() + " left this " + q.period().label()
                                + "; resets " + java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(resets.atZone(q.zone()))
                                + " (" + q.zone().getId() + ")"));
            } else if (gate instanceof ResolvedGate.Concurrency c) {
                views.add(new GateView(c.id(), "concurrency max " + c.max() + ", full backoff "
                        + c.fullBackoff().toMillis() + " ms", "-"));
            } else {
                ResolvedGate.Adaptive a = (ResolvedGate.Adaptive) gate;
                double[] s = adaptive.get(a.id());
                views.add(new GateView(a.id(), "adaptive initial " + a.params().initialMax() + ", target lag "
                        + fmt("%s", a.params().targetLagMs()) + " ms, min " + a.params().min()
                        + (a.params().ceiling() > 0 ? ", max " + a.params().ceiling() : ""),
                        s == null ? "current max " + a.params().initialMax() + " (seed)"
                                : "current max " + (long) s[0] + ", EWMA lag " + Math.round(s[1]) + " ms"
                                + (s[2] > 0 ? ", " + (long) s[2] + " failure(s) in a row" : "")));
            }
        }
        return views;
    }

    private static String waiting(Partition p, boolean policyKnown, Instant now, Instant nextDue) {
        if (!policyKnown) {
            return "Its policy is not declared by this deployment: nothing is admitted until it is.";
        }
        if (p.isPaused()) {
            return "Paused: its policy is paused by an operator.";
        }
        if (p.getNextEligibleAt() != null && p.getNextEligibleAt().isAfter(now)) {
            long seconds = Math.max(1, Duration.between(now, p.getNextEligibleAt()).toSeconds());
            return "Waiting on " + (p.getLastDenyReason() == null ? "a backoff" : p.getLastDenyReason())
                    + " until " + UNTIL.format(p.getNextEligibleAt()) + " (in " + seconds + " s).";
        }
        if (p.getPendingCount() > 0 && Denial.CAPACITY_FULL.equals(p.getLastDenyReason())) {
            return "Waiting for a free slot: policy '" + p.getPolicyName() + "' had its capacity in flight when last "
                    + "checked. It keeps its place at the front of the claim and is admitted as slots free.";
        }
        if (p.getPendingCount() > 0 && Denial.LANE_LIMIT.equals(p.getLastDenyReason())) {
            return "Waiting for a slot its lane may take: policy '" + p.getPolicyName() + "' had free slots when last checked, "
                    + "but another lane keeps them (the part of its minimum it does not lend) or this lane is at its borrowing "
                    + "limit. It keeps its place at the front of the claim.";
        }
        if (p.getPendingCount() > 0 && p.getLastDenyReason() != null) {
            return "Eligible now; last denied by " + p.getLastDenyReason() + ".";
        }
        if (p.getPendingCount() == 0 && nextDue != null) {
            return "Waiting until " + UNTIL.format(nextDue) + ", when the first of its " + p.getScheduledCount()
                    + " job(s) submitted for later is due.";
        }
        return null;
    }

    @Override
    public List<HistoryPoint> policyHistory(String policy, int minutes) {
        int window = window(minutes);
        return everyMinute(repository.policyHistory(policy, window), window);
    }

    @Override
    public List<HistoryPoint> partitionHistory(long partitionId, int minutes) {
        int window = window(minutes);
        return everyMinute(repository.partitionHistory(partitionId, window), window);
    }

    private static int window(int minutes) {
        if (minutes < 1 || minutes > HISTORY_MAX_MINUTES) {
            throw new IllegalArgumentException("A history covers 1 to " + HISTORY_MAX_MINUTES + " minutes, not " + minutes);
        }
        return minutes;
    }

    /** The minutes with activity, and 0 for the others: a chart's x axis without gaps. */
    private static List<HistoryPoint> everyMinute(List<HistoryPoint> active, int minutes) {
        java.util.Map<java.time.Instant, HistoryPoint> byMinute = new java.util.HashMap<>();
        active.forEach(p -> byMinute.put(p.minute(), p));
        java.time.Instant now = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        List<HistoryPoint> all = new java.util.ArrayList<>(minutes);
        for (int i = minutes - 1; i >= 0; i--) {
            java.time.Instant minute = now.minus(i, java.time.temporal.ChronoUnit.MINUTES);
            all.add(byMinute.getOrDefault(minute, new HistoryPoint(minute, 0, 0, 0)));
        }
        return all;
    }

    @Override
    public List<DenialRow> denials(long withinSeconds, String policy, String reason, String keyContains) {
        return repository.denials(withinSeconds, blankToNull(policy), blankToNull(reason), likePattern(keyContains), DENIALS_SHOWN);
    }

    @Override
    public List<DenialRow> deniedNow(String policy, String reason, String keyContains) {
        return repository.deniedNow(registry.names(), blankToNull(policy), blankToNull(reason), likePattern(keyContains), DENIALS_SHOWN);
    }

    private static String likePattern(String keyContains) {
        return keyContains == null || keyContains.isBlank() ? null : "%" + PartitionBrowser.escapeLike(keyContains.strip()) + "%";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String fmt(String format, Object... args) {
        Object[] shown = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            shown[i] = args[i] instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue()) : String.valueOf(args[i]);
        }
        return String.format(Locale.ROOT, format, shown);
    }
}
