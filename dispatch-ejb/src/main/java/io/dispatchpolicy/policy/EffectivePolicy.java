package io.dispatchpolicy.policy;

import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.domain.gate.ResolvedGate;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.spi.DeclaredGate;
import io.dispatchpolicy.spi.Demotion;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.FairnessMeasure;
import io.dispatchpolicy.spi.Limit;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Param;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.spi.Timeouts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * A policy with its {@code dispatch.policy.<name>.*} overrides applied, as read for one tick
 * iteration: what the tick and admission actually use.
 *
 * @param capacity      at most this many of the policy's jobs in flight cluster-wide (declared, or standalone.xml's constant)
 * @param lanes         the lanes, declared or from standalone.xml; empty when the policy has none
 * @param defaultLane   the lane of jobs that name none; null without lanes
 * @param demotions     demotion rules in force (declared, or standalone.xml's), the last matching one wins
 * @param retries       how a job whose execution ends FAILED is retried (declared, with standalone.xml's constants over it)
 * @param gateOverrides constant parameter values by gate id and parameter name, replacing the declared ones
 * @param timeouts      how long its jobs may run and go without a checkpoint (declared, with standalone.xml's over it)
 * @param fairnessMeasure what fairness counts of each partition (ADR 0048)
 * @param limits        the shared limits its jobs pass besides its gates, with their values now (ADR 0049)
 */
public record EffectivePolicy(Policy policy, int admissionBatchSize, OptionalInt tickAdmissionBudget,
                              OptionalInt capacity, List<Lane> lanes, String defaultLane, List<Demotion> demotions,
                              Optional<Duration> fairnessHalfLife, RetryStrategy retryStrategy, Retries retries,
                              Map<String, Map<String, Double>> gateOverrides, Timeouts timeouts, FairnessMeasure fairnessMeasure,
                              List<Limit> limits) {

    /** As the policy is declared, with no setting over it (tests, and a policy whose settings are not read). */
    public EffectivePolicy(Policy policy, int admissionBatchSize, OptionalInt tickAdmissionBudget,
                           OptionalInt capacity, List<Lane> lanes, String defaultLane, List<Demotion> demotions,
                           Optional<Duration> fairnessHalfLife, RetryStrategy retryStrategy, Retries retries,
                           Map<String, Map<String, Double>> gateOverrides) {
        this(policy, admissionBatchSize, tickAdmissionBudget, capacity, lanes, defaultLane, demotions, fairnessHalfLife,
                retryStrategy, retries, gateOverrides, policy.timeouts(), policy.fairnessMeasure(), List.of());
    }

    /**
     * The half-life, in seconds, of the slot-seconds its admissions record for fairness by usage (ADR 0048); empty
     * when the policy does not order by usage (nothing is recorded then).
     */
    public java.util.OptionalDouble usageHalfLifeSeconds() {
        return fairnessMeasure == FairnessMeasure.USAGE && fairnessHalfLife.isPresent()
                ? java.util.OptionalDouble.of(fairnessHalfLife.get().toMillis() / 1000.0) : java.util.OptionalDouble.empty();
    }

    /** The timeouts of a job of this name: {@code submitted} where it sets them, else the policy's (ADR 0030). */
    public JobTimeouts timeoutsOf(String jobName, JobTimeouts submitted) {
        return submitted.or(JobTimeouts.of(timeouts.runFor(jobName), timeouts.progressFor(jobName)));
    }

    /** Parameter names per gate type, as used in {@code dispatch.policy.<p>.gate.<id>.<param>}. */
    public static final Map<String, List<String>> GATE_PARAMS = Map.of(
            "throttle", List.of("rate", "per"),
            "concurrency", List.of("max", "full-backoff"),
            "adaptive-concurrency", List.of("initial-max", "target-lag-ms", "min", "max"),
            "quota", List.of("max"));

    public String name() {
        return policy.name();
    }

    /**
     * This policy as one partition key sees it: an operator's gate overrides for that key (ADR 0025) over
     * standalone.xml's and the declared values. {@code this} when there are none — the common case, free.
     */
    public EffectivePolicy withGateOverrides(Map<String, Map<String, Double>> partitionOverrides) {
        if (partitionOverrides.isEmpty()) {
            return this;
        }
        Map<String, Map<String, Double>> merged = new LinkedHashMap<>();
        gateOverrides.forEach((gate, params) -> merged.put(gate, new LinkedHashMap<>(params)));
        partitionOverrides.forEach((gate, params) -> merged.computeIfAbsent(gate, g -> new LinkedHashMap<>()).putAll(params));
        return new EffectivePolicy(policy, admissionBatchSize, tickAdmissionBudget, capacity, lanes, defaultLane, demotions,
                fairnessHalfLife, retryStrategy, retries, merged, timeouts, fairnessMeasure, limits);
    }

    /**
     * This policy with an operator's lane overrides (ADR 0025): per lane, {@code weight} and/or {@code min}.
     * Values are whole numbers (checked when set); a lane the policy no longer has is ignored.
     */
    public EffectivePolicy withLaneOverrides(Map<String, Map<String, Double>> laneOverrides) {
        if (laneOverrides.isEmpty() || lanes.isEmpty()) {
            return this;
        }
        List<Lane> overridden = new ArrayList<>(lanes.size());
        for (Lane lane : lanes) {
            Map<String, Double> o = laneOverrides.getOrDefault(lane.name(), Map.of());
            overridden.add(o.isEmpty() ? lane : new Lane(lane.name(),
                    o.containsKey("weight") ? (int) Math.round(o.get("weight")) : lane.weight(),
                    o.containsKey("min") ? (int) Math.round(o.get("min")) : lane.min(),
                    // a lending limit above an overridden min lends all of it
                    lane.lendingLimit() == null ? null : Math.min(lane.lendingLimit(),
                            o.containsKey("min") ? (int) Math.round(o.get("min")) : lane.min()),
                    lane.borrowingLimit()));
        }
        return new EffectivePolicy(policy, admissionBatchSize, tickAdmissionBudget, capacity, List.copyOf(overridden),
                defaultLane, demotions, fairnessHalfLife, retryStrategy, retries, gateOverrides, timeouts, fairnessMeasure, limits);
    }

    /** The gate of this policy with {@code id}, if it has one. */
    public Optional<DeclaredGate> gate(String id) {
        return policy.gates().stream().filter(g -> g.id().equals(id)).findFirst();
    }

    /** A gate's parameter names ({@link #GATE_PARAMS}), by its type. */
    public static List<String> paramsOf(Gate gate) {
        return GATE_PARAMS.get(gate.type());
    }

    public boolean hasLanes() {
        return !lanes.isEmpty();
    }

    /**
     * The lane a submission goes to: the one it names, else the default; {@code ""} for a policy
     * without lanes.
     *
     * @throws IllegalArgumentException when it names a lane the policy does not have
     */
    public String laneFor(String named) {
        return laneFor(name(), lanes, defaultLane, named);
    }

    /** As {@link #laneFor(String)}, for lanes given apart from a policy's settings (its declaration). */
    public static String laneFor(String policy, List<Lane> lanes, String defaultLane, String named) {
        if (lanes.isEmpty()) {
            if (named != null) {
                throw new IllegalArgumentException("policy '" + policy + "' has no lanes; the submission named lane '" + named + "'");
            }
            return "";
        }
        if (named == null) {
            return defaultLane;
        }
        if (lanes.stream().noneMatch(l -> l.name().equals(named))) {
            throw new IllegalArgumentException("policy '" + policy + "' has no lane '" + named + "'; its lanes are "
                    + lanes.stream().map(Lane::name).toList());
        }
        return named;
    }

    /** True when a gate needs the partition's in-flight count. */
    public boolean countsInFlight() {
        return policy.countsInFlight();
    }

    public List<String> adaptiveGateIds() {
        return policy.adaptiveGateIds();
    }

    /** Each gate with the values in force, e.g. {@code throttle: rate 100 (standalone.xml), per 60 s}. */
    public List<String> describeGates() {
        return describeGates(policy, gateOverrides);
    }

    /**
     * As {@link #describeGates()} for a policy and the overrides given apart (a held policy: its declaration).
     * A parameter the partition's context gives reads {@code per partition}.
     */
    public static List<String> describeGates(Policy policy, Map<String, Map<String, Double>> overrides) {
        List<String> described = new ArrayList<>(policy.gates().size());
        for (DeclaredGate declared : policy.gates()) {
            Map<String, Param> params = new LinkedHashMap<>();
            if (declared.gate() instanceof Gate.Throttle t) {
                params.put("rate", t.rate());
                params.put("per", t.perSeconds());
            } else if (declared.gate() instanceof Gate.Concurrency c) {
                params.put("max", c.max());
                params.put("full-backoff", c.fullBackoffSeconds());
            } else if (declared.gate() instanceof Gate.Quota q) {
                params.put("max", q.max());
            } else {
                Gate.AdaptiveConcurrency a = (Gate.AdaptiveConcurrency) declared.gate();
                params.put("initial-max", a.initialMax());
                params.put("target-lag-ms", a.targetLagMs());
                params.put("min", a.min());
                params.put("max", a.max());
            }
            Map<String, Double> overridden = overrides.getOrDefault(declared.id(), Map.of());
            StringJoiner values = new StringJoiner(", ", declared.id() + ": ", "");
            params.forEach((name, param) -> {
                Double override = overridden.get(name);
                String unit = name.equals("per") || name.equals("full-backoff") ? " s" : "";
                if (override != null) {
                    values.add(name + " " + number(override) + unit + " (standalone.xml)");
                } else if (param instanceof Param.Constant constant) {
                    values.add(name + " " + number(constant.value()) + unit);
                } else if (param != null) {
                    values.add(name + " per partition");
                }
            });
            if (declared.gate() instanceof Gate.Quota q) {
                values.add("a " + q.period().label() + " from midnight in " + (q.zoneKey() == null ? q.zone()
                        : "the partition's zone ('" + q.zoneKey() + "' of its context)"));
            }
            described.add(values.toString());
        }
        return described;
    }

    /** A parameter's value as the console and the audit log write it: {@code 3}, not {@code 3.0}. */
    public static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    /**
     * The gates with every parameter evaluated against the partition's context.
     *
     * @throws GateParameterException when a value is unusable
     */
    public List<ResolvedGate> resolveGates(Map<String, Object> context) {
        List<ResolvedGate> resolved = new ArrayList<>(policy.gates().size());
        for (DeclaredGate declared : policy.gates()) {
            String id = declared.id();
            Gate gate = declared.gate();
            if (gate instanceof Gate.Throttle t) {
                double rate = value(id, "rate", t.rate(), context);
                double per = positive(id, "per", value(id, "per", t.perSeconds(), context));
                resolved.add(new ResolvedGate.Throttle(id, rate, per));
            } else if (gate instanceof Gate.Concurrency c) {
                long max = (long) Math.floor(value(id, "max", c.max(), context));
                double backoff = positive(id, "full-backoff", value(id, "full-backoff", c.fullBackoffSeconds(), context));
                resolved.add(new ResolvedGate.Concurrency(id, max, Duration.ofMillis(Math.round(backoff * 1000))));
            } else if (gate instanceof Gate.Quota q) {
                double max = value(id, "max", q.max(), context);
                if (max < 0) {
                    throw new GateParameterException(where(id, "max") + " must be >= 0, was " + number(max));
                }
                resolved.add(new ResolvedGate.Quota(id, (long) Math.floor(max), q.period(), quotaZone(id, q, context)));
            } else {
                Gate.AdaptiveConcurrency a = (Gate.AdaptiveConcurrency) gate;
                resolved.add(new ResolvedGate.Adaptive(id, adaptiveParams(id, a, context)));
            }
        }
        return resolved;
    }

    /** The quota's zone: its own, or the partition's from its context (a tenant's zone). */
    private java.time.ZoneId quotaZone(String id, Gate.Quota q, Map<String, Object> context) {
        String zone = q.zoneKey() == null ? q.zone() : context.get(q.zoneKey()) == null ? null : context.get(q.zoneKey()).toString();
        if (zone == null || zone.isBlank()) {
            throw new GateParameterException(where(id, "zone") + ": the context has no zone under '" + q.zoneKey() + "'");
        }
        try {
            return java.time.ZoneId.of(zone.strip());
        } catch (RuntimeException e) {
            throw new GateParameterException(where(id, "zone") + ": '" + zone + "' is no zone id");
        }
    }

    /** Parameters of one adaptive gate, for admission and for the feedback after each job. */
    public AdaptiveCap.Params adaptiveParams(String id, Map<String, Object> context) {
        return policy.gates().stream().filter(g -> g.id().equals(id)).findFirst()
                .map(g -> adaptiveParams(id, (Gate.AdaptiveConcurrency) g.gate(), context))
                .orElseThrow(() -> new GateParameterException("Policy '" + name() + "' has no adaptive gate '" + id + "'"));
    }

    private AdaptiveCap.Params adaptiveParams(String id, Gate.AdaptiveConcurrency a, Map<String, Object> context) {
        int initial = atLeastOne(id, "initial-max", value(id, "initial-max", a.initialMax(), context));
        double target = positive(id, "target-lag-ms", value(id, "target-lag-ms", a.targetLagMs(), context));
        int min = atLeastOne(id, "min", value(id, "min", a.min(), context));
        int ceiling = a.max() == null && !overridden(id, "max") ? 0
                : atLeastOne(id, "max", value(id, "max", a.max(), context));
        if (ceiling > 0 && ceiling < min) {
            throw new GateParameterException(where(id, "max") + " (" + ceiling + ") is below min (" + min + ")");
        }
        return new AdaptiveCap.Params(initial, target, min, ceiling);
    }

    private boolean overridden(String gateId, String param) {
        return gateOverrides.getOrDefault(gateId, Map.of()).containsKey(param);
    }

    private double value(String gateId, String param, Param declared, Map<String, Object> context) {
        Double override = gateOverrides.getOrDefault(gateId, Map.of()).get(param);
        if (override != null) {
            return override;
        }
        if (declared == null) {
            throw new GateParameterException(where(gateId, param) + " has no value");
        }
        double v;
        try {
            v = declared.of(context);
        } catch (RuntimeException e) {
            throw new GateParameterException(where(gateId, param) + " could not be evaluated: " + e);
        }
        if (!Double.isFinite(v)) {
            throw new GateParameterException(where(gateId, param) + " evaluated to " + v);
        }
        return v;
    }

    private double positive(String gateId, String param, double v) {
        if (!(v > 0)) {
            throw new GateParameterException(where(gateId, param) + " must be > 0, was " + v);
        }
        return v;
    }

    private int atLeastOne(String gateId, String param, double v) {
        if (v < 1) {
            throw new GateParameterException(where(gateId, param) + " must be >= 1, was " + v);
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.floor(v));
    }

    private String where(String gateId, String param) {
        return "Policy '" + name() + "' gate '" + gateId + "' parameter '" + param + "'";
    }
}
