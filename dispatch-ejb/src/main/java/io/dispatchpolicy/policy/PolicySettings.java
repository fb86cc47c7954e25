package io.dispatchpolicy.policy;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.spi.DeclaredGate;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.ItemRate;
import io.dispatchpolicy.spi.Param;
import io.dispatchpolicy.spi.Demotion;
import io.dispatchpolicy.spi.FairnessMeasure;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.spi.Timeouts;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A policy's settings from standalone.xml ({@code dispatch.policy.<name>.*}, read on every call, so a value
 * written with jboss-cli applies at the next iteration): the overrides that make a declared policy the
 * policy in force ({@link EffectivePolicy}), the policies declared there entirely, and the check at
 * deployment that every such property names a known policy, knob and gate parameter. The index of
 * policies is {@link PolicyRegistry}'s.
 */
@ApplicationScoped
public class PolicySettings {

    static final String PREFIX = "dispatch.policy.";
    private static final List<String> POLICY_KNOBS = List.of("jobs", "partition-by", "shard-by", "gates", "admission-batch-size",
            "tick-admission-budget", "capacity", "lanes", "default-lane", "demote", "fairness-half-life", "fairness-measure", "limits", "retry-strategy", "retry.interval", "retry.max-retries", "retry.lane",
            "timeout", "progress-timeout", "cost", "item-rate", "item-burst",
            "unique-by", "unique-window", "expire-after", "debounce-by", "debounce-period", "debounce-max-wait", "backlog-cap",
            "backlog-overflow");
    /** The knobs of the submission controls (ADR 0036). */
    private static final List<String> CONTROL_KNOBS = List.of("unique-by", "unique-window", "expire-after", "debounce-by",
            "debounce-period", "debounce-max-wait", "backlog-cap", "backlog-overflow");
    /** Knobs that may also name one of the policy's jobs: {@code timeout.<job>}, {@code progress-timeout.<job>}, {@code cost.<job>}. */
    private static final List<String> PER_JOB_KNOBS = List.of("timeout", "progress-timeout", "cost");
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(PolicySettings.class.getName());

    /** Every knob a policy reads ({@code dispatch.policy.<policy>.<knob>}), besides its gates' parameters. */
    public static List<String> knobs() {
        return POLICY_KNOBS;
    }

    /** The knobs that may also name one of the policy's jobs ({@code <knob>.<job>}). */
    public static List<String> perJobKnobs() {
        return PER_JOB_KNOBS;
    }
    /** Bad cost and item-rate values written live, each reported once (what was declared applies instead). */
    private final java.util.Set<String> badCostsReported = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Inject
    DispatchSettings settings;

    @Inject
    LimitRegistry limitRegistry;

    /**
     * Whether the policy has lanes now, from one property read: the submission path asks this before
     * it reads all of a policy's settings, which only a policy with lanes needs.
     */
    public boolean hasLanes(Policy p) {
        Optional<String> configured = settings.raw(PREFIX + p.name() + ".lanes").map(String::strip);
        return configured.isPresent() ? !configured.get().isEmpty() && !configured.get().equalsIgnoreCase("none")
                : !p.lanes().isEmpty();
    }

    /** Whether the policy may have demotion rules now (declared, or a {@code demote} property), from one property read. */
    public boolean mayDemote(Policy p) {
        return !p.demotions().isEmpty() || settings.raw(PREFIX + p.name() + ".demote").isPresent();
    }

    /** The policy with its current overrides. @throws InvalidSettingException naming the property that cannot be used */
    public EffectivePolicy effective(Policy p) {
        String base = PREFIX + p.name() + ".";
        int batch = settings.positiveInt(base + "admission-batch-size",
                p.admissionBatchSize().orElseGet(settings::admissionBatchSize));
        OptionalInt budget = settings.raw(base + "tick-admission-budget").isPresent()
                ? settings.optionalPositiveInt(base + "tick-admission-budget")
                : p.tickAdmissionBudget().isPresent() ? p.tickAdmissionBudget() : settings.tickAdmissionBudget();
        OptionalInt capacity = settings.raw(base + "capacity").isPresent()
                ? settings.optionalPositiveInt(base + "capacity") : p.capacity();
        List<Demotion> demotions = demotions(base, p);
        Retries retries = retries(base, p.retries());
        Lanes lanes = lanes(base, p, capacity, demotions, retries.lane().orElse(null));
        Optional<Duration> halfLife = settings.raw(base + "fairness-half-life").isPresent()
                ? settings.optionalSeconds(base + "fairness-half-life", DispatchSettings.DEFAULT_FAIRNESS_HALF_LIFE_SECONDS)
                : p.fairnessDisabled() ? Optional.empty() : p.fairnessHalfLife().or(settings::fairnessHalfLife);
        RetryStrategy retry = settings.raw(base + "retry-strategy").map(v -> retryStrategy(base + "retry-strategy", v))
                .orElse(p.retryStrategy());
        Map<String, Map<String, Double>> overrides = new HashMap<>();
        for (DeclaredGate gate : p.gates()) {
            for (String param : EffectivePolicy.GATE_PARAMS.get(gate.gate().type())) {
                settings.number(base + "gate." + gate.id() + "." + param)
                        .ifPresent(v -> overrides.computeIfAbsent(gate.id(), k -> new HashMap<>()).put(param, v));
            }
        }
        FairnessMeasure measure = settings.raw(base + "fairness-measure").map(v -> fairnessMeasure(base + "fairness-measure", v))
                .orElse(p.fairnessMeasure());
        return new EffectivePolicy(p, batch, budget, capacity, lanes.lanes(), lanes.defaultLane(), demotions, halfLife, retry,
                retries, overrides, timeouts(base, p), measure, limitRegistry.referencedBy(p));
    }

    /**
     * What the policy says a job of this name costs (ADR 0035): {@code cost.<job>}, else {@code cost}, from
     * standalone.xml (live), else {@link Policy#costs() declared}; empty when none says (its job XML does).
     * A value written live that is not a whole number from 1 to {@code Policy.MAX_COST} is reported
     * once and skipped; at deployment it fails the deployment ({@link #validate}).
     */
    public OptionalInt costOf(Policy p, String jobName) {
        String base = PREFIX + p.name() + ".";
        for (String property : List.of(base + "cost." + jobName, base + "cost")) {
            if (settings.raw(property).isEmpty()) {
                continue;
            }
            try {
                return OptionalInt.of(cost(property));
            } catch (InvalidSettingException e) {
                if (badCostsReported.add(property + "=" + settings.raw(property).orElse(""))) {
                    LOG.warning(e.getMessage() + "; submissions of job '" + jobName + "' go on without it");
                }
            }
        }
        Integer declared = p.costs().get(jobName);
        return declared == null ? OptionalInt.empty() : OptionalInt.of(declared);
    }

    /**
     * The policy's item throttle (ADR 0034) with standalone.xml's over the declared one, live: {@code item-rate} items
     * a second (or {@code off}), {@code item-burst} what a full bucket holds (at least 1; by default the rate, or the
     * declared burst when only the burst is not set). A bad value written live is reported once and the declared
     * throttle applies; at deployment it fails the deployment.
     */
    public Optional<ItemRate> itemRate(Policy p) {
        String base = PREFIX + p.name() + ".";
        if (settings.raw(base + "item-rate").isEmpty() && settings.raw(base + "item-burst").isEmpty()) {
            return p.itemRate();
        }
        try {
            return itemRateSetting(base, p);
        } catch (InvalidSettingException e) {
            if (badCostsReported.add(e.getMessage())) {
                LOG.warning(e.getMessage() + "; policy '" + p.name() + "' keeps its declared item throttle");
            }
            return p.itemRate();
        }
    }

    private Optional<ItemRate> itemRateSetting(String base, Policy p) {
        Optional<String> rate = settings.raw(base + "item-rate").map(String::strip);
        if (rate.isPresent() && rate.get().equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        double perSecond;
        if (rate.isPresent()) {
            perSecond = settings.number(base + "item-rate").orElseThrow();
            if (!(perSecond > 0)) {
                throw new InvalidSettingException(base + "item-rate", rate.get(), "a number of items a second > 0, or off");
            }
        } else if (p.itemRate().isPresent()) {
            perSecond = p.itemRate().get().perSecond();
        } else {
            throw new InvalidSettingException(base + "item-burst", settings.raw(base + "item-burst").orElse(""),
                    "an item-rate beside it: the policy declares no item throttle");
        }
        double burst;
        if (settings.raw(base + "item-burst").isPresent()) {
            burst = settings.number(base + "item-burst").orElseThrow();
            if (!(burst >= 1)) {
                throw new InvalidSettingException(base + "item-burst", settings.raw(base + "item-burst").orElse(""), "a number >= 1");
            }
        } else {
            burst = rate.isPresent() ? Math.max(1, perSecond) : p.itemRate().get().burst();
        }
        return Optional.of(new ItemRate(perSecond, Duration.ofSeconds(1), burst));
    }

    /**
     * The policy's submission controls in force (ADR 0036), live: standalone.xml's over the declared ones. A bad
     * value written live is reported once and the declared controls apply; at deployment it fails the deployment.
     */
    public SubmissionControls controls(Policy p) {
        String base = PREFIX + p.name() + ".";
        boolean any = false;
        for (String knob : CONTROL_KNOBS) {
            any |= settings.raw(base + knob).isPresent();
        }
        if (!any) {
            return SubmissionControls.declared(p);
        }
        try {
            return controlsSetting(base, p);
        } catch (InvalidSettingException e) {
            if (badCostsReported.add(e.getMessage())) {
                LOG.warning(e.getMessage() + "; policy '" + p.name() + "' keeps its declared submission controls");
            }
            return SubmissionControls.declared(p);
        }
    }

    private SubmissionControls controlsSetting(String base, Policy p) {
        SubmissionControls d = SubmissionControls.declared(p);
        io.dispatchpolicy.spi.KeyFunction uniqueBy = keySetting(base + "unique-by", d.uniqueBy());
        io.dispatchpolicy.spi.Uniqueness uniqueness = d.uniqueness() != null ? d.uniqueness() : io.dispatchpolicy.spi.Uniqueness.WHILE_LIVE;
        if (settings.raw(base + "unique-window").isPresent()) {
            Optional<Duration> window = settings.optionalSeconds(base + "unique-window", 1);
            try {
                uniqueness = window.map(io.dispatchpolicy.spi.Uniqueness::within).orElse(io.dispatchpolicy.spi.Uniqueness.WHILE_LIVE);
            } catch (IllegalArgumentException e) {
                throw new InvalidSettingException(base + "unique-window", settings.raw(base + "unique-window").orElse(""),
                        "a number of seconds > 0 and at most " + io.dispatchpolicy.spi.Uniqueness.MAX_WINDOW.toSeconds() + ", or off");
            }
        }
        Duration expireAfter = d.expireAfter();
        if (settings.raw(base + "expire-after").isPresent()) {
            expireAfter = settings.optionalSeconds(base + "expire-after", 1).orElse(null);
            if (expireAfter != null && expireAfter.compareTo(Policy.MAX_EXPIRY) > 0) {
                throw new InvalidSettingException(base + "expire-after", settings.raw(base + "expire-after").orElse(""),
                        "a number of seconds > 0 and at most " + Policy.MAX_EXPIRY.toSeconds() + ", or off");
            }
        }
        io.dispatchpolicy.spi.KeyFunction debounceBy = keySetting(base + "debounce-by", d.debounceBy());
        io.dispatchpolicy.spi.Debounce debounce = d.debounce();
        if (settings.raw(base + "debounce-period").isPresent() || settings.raw(base + "debounce-max-wait").isPresent()) {
            Duration period = settings.raw(base + "debounce-period").isPresent() ? settings.seconds(base + "debounce-period", 1)
                    : debounce != null ? debounce.period() : null;
            Duration maxWait = settings.raw(base + "debounce-max-wait").isPresent() ? settings.seconds(base + "debounce-max-wait", 1)
                    : debounce != null ? debounce.maxWait() : null;
            try {
                debounce = new io.dispatchpolicy.spi.Debounce(period, maxWait);
            } catch (IllegalArgumentException e) {
                String property = period == null || e.getMessage().contains("period must") ? base + "debounce-period" : base + "debounce-max-wait";
                throw new InvalidSettingException(property, settings.raw(property).orElse(""), e.getMessage());
            }
        }
        if (debounceBy != null && debounce == null) {
            throw new InvalidSettingException(base + "debounce-by", settings.raw(base + "debounce-by").orElse(""),
                    "a debounce-period beside it (the policy declares no debounce)");
        }
        io.dispatchpolicy.spi.BacklogCap cap = d.backlogCap();
        if (settings.raw(base + "backlog-cap").isPresent() || settings.raw(base + "backlog-overflow").isPresent()) {
            OptionalInt max = settings.raw(base + "backlog-cap").isPresent() ? settings.optionalPositiveInt(base + "backlog-cap")
                    : cap != null ? OptionalInt.of(cap.max()) : OptionalInt.empty();
            io.dispatchpolicy.spi.BacklogCap.Overflow overflow = cap != null ? cap.overflow() : io.dispatchpolicy.spi.BacklogCap.Overflow.REJECT;
            Optional<String> named = settings.raw(base + "backlog-overflow").map(String::strip);
            if (named.isPresent()) {
                overflow = java.util.Arrays.stream(io.dispatchpolicy.spi.BacklogCap.Overflow.values())
                        .filter(o -> o.setting().equalsIgnoreCase(named.get())).findFirst()
                        .orElseThrow(() -> new InvalidSettingException(base + "backlog-overflow", named.get(),
                                "reject, drop-oldest or keep-newest"));
            }
            if (max.isPresent() && max.getAsInt() > io.dispatchpolicy.spi.BacklogCap.MAX) {
                throw new InvalidSettingException(base + "backlog-cap", settings.raw(base + "backlog-cap").orElse(""),
                        "a whole number from 1 to " + io.dispatchpolicy.spi.BacklogCap.MAX + ", or none");
            }
            cap = max.isPresent() ? new io.dispatchpolicy.spi.BacklogCap(max.getAsInt(), overflow) : null;
        }
        if (uniqueBy != null && debounceBy != null) {
            String property = settings.raw(base + "debounce-by").isPresent() ? base + "debounce-by" : base + "unique-by";
            throw new InvalidSettingException(property, settings.raw(property).orElse(""),
                    "either a uniqueness key or a debounce key, not both (set the other to none)");
        }
        return new SubmissionControls(uniqueBy, uniqueBy == null ? null : uniqueness, expireAfter, debounceBy,
                debounceBy == null ? null : debounce, cap);
    }

    /** A key of job parameters' names ({@code a,b}), {@code none} for no key, absent: the declared one. */
    private io.dispatchpolicy.spi.KeyFunction keySetting(String property, io.dispatchpolicy.spi.KeyFunction declared) {
        Optional<String> raw = settings.raw(property).map(String::strip);
        if (raw.isEmpty()) {
            return declared;
        }
        if (raw.get().equalsIgnoreCase("none")) {
            return null;
        }
        String[] names = java.util.Arrays.stream(raw.get().split(",")).map(String::strip).toArray(String[]::new);
        try {
            return io.dispatchpolicy.spi.KeyFunction.parameters(names);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(property, raw.get(), "job parameters' names separated by commas, or none");
        }
    }

    private int cost(String property) {
        int value = settings.positiveInt(property, 1);
        if (value > Policy.MAX_COST) {
            throw new InvalidSettingException(property, settings.raw(property).orElse(""),
                    "a whole number of batch threads from 1 to " + Policy.MAX_COST);
        }
        return value;
    }

    /**
     * Checks that every policy's settings parse; called at deployment. A property whose name is wrong
     * fails nothing: {@link #nameProblem} reports it (ADR 0023).
     *
     * @param policies   every policy, by name
     * @param configured the names of those declared entirely in standalone.xml (their gates' parameters
     *                   must all come from properties)
     */
    public void validate(Map<String, Policy> policies, java.util.Set<String> configured) {
        for (Policy policy : policies.values()) {
            EffectivePolicy effective = effective(policy);
            for (String property : java.util.stream.Stream.concat(java.util.stream.Stream.of("cost"),
                    policy.jobNames().stream().map(j -> "cost." + j)).toList()) {
                if (settings.raw(PREFIX + policy.name() + "." + property).isPresent()) {
                    cost(PREFIX + policy.name() + "." + property);
                }
            }
            if (settings.raw(PREFIX + policy.name() + ".item-rate").isPresent() || settings.raw(PREFIX + policy.name() + ".item-burst").isPresent()) {
                itemRateSetting(PREFIX + policy.name() + ".", policy);
            }
            controlsSetting(PREFIX + policy.name() + ".", policy);
            if (configured.contains(policy.name())) {
                try {
                    effective.resolveGates(Map.of());
                } catch (GateParameterException e) {
                    throw new InvalidSettingException(PREFIX + policy.name() + ".gate.*", "",
                            "every required gate parameter of a policy declared in standalone.xml: " + e.getMessage());
                }
            }
        }
    }

    /**
     * What is wrong with the name of a {@code dispatch.policy.*} property, with the nearest declared name:
     * empty when it names a declared policy and one of its knobs or gate parameters.
     */
    public Optional<String> nameProblem(String property, Map<String, Policy> policies) {
        Optional<Policy> policy = policies.values().stream()
                .filter(p -> property.startsWith(PREFIX + p.name() + "."))
                .max(Comparator.comparingInt(p -> p.name().length()));
        if (policy.isEmpty()) {
            String rest = property.substring(PREFIX.length());
            String named = rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
            return Optional.of("no declared policy is named '" + named + "'"
                    + io.dispatchpolicy.config.NearestName.to(named, policies.keySet()).map(n -> ": did you mean '" + n + "'?")
                    .orElse(" (declared: " + new java.util.TreeSet<>(policies.keySet()) + ")"));
        }
        Policy p = policy.get();
        String knob = property.substring((PREFIX + p.name() + ".").length());
        if (POLICY_KNOBS.contains(knob) || isGateParam(p, knob)) {
            return Optional.empty();
        }
        for (String perJob : PER_JOB_KNOBS) {
            if (knob.startsWith(perJob + ".")) {
                String job = knob.substring(perJob.length() + 1);
                return p.jobNames().contains(job) ? Optional.empty()
                        : Optional.of("policy '" + p.name() + "' governs no job '" + job + "'"
                        + io.dispatchpolicy.config.NearestName.to(job, p.jobNames()).map(n -> ": did you mean '" + n + "'?")
                        .orElse(" (it governs " + p.jobNames() + ")"));
            }
        }
        List<String> known = new java.util.ArrayList<>(POLICY_KNOBS);
        for (DeclaredGate gate : p.gates()) {
            for (String param : EffectivePolicy.GATE_PARAMS.get(gate.gate().type())) {
                known.add("gate." + gate.id() + "." + param);
            }
        }
        return Optional.of("policy '" + p.name() + "' has no setting '" + knob + "'"
                + io.dispatchpolicy.config.NearestName.to(knob, known).map(n -> ": did you mean '" + n + "'?")
                .orElse(" (one of " + POLICY_KNOBS + " or gate.<id>.<param> with a gate id of " + p.gates().stream()
                        .map(DeclaredGate::id).toList() + ")"));
    }

    private static boolean isGateParam(Policy policy, String knob) {
        if (!knob.startsWith("gate.") || knob.lastIndexOf('.') <= 5) {
            return false;
        }
        String id = knob.substring(5, knob.lastIndexOf('.'));
        String param = knob.substring(knob.lastIndexOf('.') + 1);
        return policy.gates().stream()
                .anyMatch(g -> g.id().equals(id) && EffectivePolicy.GATE_PARAMS.get(g.gate().type()).contains(param));
    }

    private record Lanes(List<Lane> lanes, String defaultLane) {
    }

    /**
     * The declared timeouts with standalone.xml's over them: {@code timeout} and {@code progress-timeout} for
     * every job of the policy, {@code timeout.<job>} and {@code progress-timeout.<job>} for one; each a number
     * of seconds, or {@code off} for none.
     */
    private Timeouts timeouts(String base, Policy p) {
        Timeouts t = p.timeouts();
        if (settings.raw(base + "timeout").isPresent()) {
            t = t.run(timeoutSetting(base + "timeout"));
        }
        if (settings.raw(base + "progress-timeout").isPresent()) {
            t = t.progress(timeoutSetting(base + "progress-timeout"));
        }
        for (String job : p.jobNames()) {
            if (settings.raw(base + "timeout." + job).isPresent()) {
                t = t.run(job, timeoutSetting(base + "timeout." + job));
            }
            if (settings.raw(base + "progress-timeout." + job).isPresent()) {
                t = t.progress(job, timeoutSetting(base + "progress-timeout." + job));
            }
        }
        return t;
    }

    private Duration timeoutSetting(String property) {
        Optional<Duration> value = settings.optionalSeconds(property, 1);
        if (value.isPresent() && value.get().compareTo(Timeouts.LONGEST) > 0) {
            throw new InvalidSettingException(property, settings.raw(property).orElse(""),
                    "a number of seconds > 0 and at most " + Timeouts.LONGEST.toSeconds() + ", or off");
        }
        return value.orElse(null);
    }

    /**
     * The declared lanes, or standalone.xml's {@code lanes} ({@code name:weight[:min[:lend=n][:borrow=n]],…}, replacing them
     * all; {@code none} for no lanes) and {@code default-lane}; checked against the capacity in force.
     */
    /** The declared demotion rules, or standalone.xml's {@code demote} ({@code threshold:seconds:lane,…}; {@code none}). */
    private List<Demotion> demotions(String base, Policy p) {
        Optional<String> text = settings.raw(base + "demote").map(String::strip);
        if (text.isEmpty()) {
            return p.demotions();
        }
        if (text.get().isEmpty() || text.get().equalsIgnoreCase("none")) {
            return List.of();
        }
        try {
            return Demotion.parse(text.get());
        } catch (PolicyDeclarationException e) {
            throw new InvalidSettingException(base + "demote", text.get(), "threshold:seconds:lane, comma-separated, with "
                    + "threshold >= 0 and 1 to 86400 seconds (" + e.getMessage() + ")");
        }
    }

    private Lanes lanes(String base, Policy p, OptionalInt capacity, List<Demotion> demotions, String retryLane) {
        Optional<String> text = settings.raw(base + "lanes").map(String::strip);
        Optional<String> defaultText = settings.raw(base + "default-lane").map(String::strip).filter(v -> !v.isEmpty());
        List<Lane> lanes = p.lanes();
        if (text.isPresent()) {
            try {
                lanes = text.get().isEmpty() || text.get().equalsIgnoreCase("none") ? List.of() : Lane.parse(text.get());
            } catch (PolicyDeclarationException e) {
                throw new InvalidSettingException(base + "lanes", text.get(), "name:weight[:min[:lend=n][:borrow=n]], comma-separated, "
                        + "with weight >= 1 and min >= 0 (" + e.getMessage() + ")");
            }
            if (lanes.stream().map(Lane::name).distinct().count() != lanes.size()) {
                throw new InvalidSettingException(base + "lanes", text.get(), "each lane named once");
            }
        }
        String defaultLane = defaultText.orElse(text.isPresent() ? (lanes.isEmpty() ? null : lanes.get(0).name()) : p.defaultLane());
        String problem = Policy.lanesProblem(lanes, defaultLane, capacity.isPresent() ? capacity.getAsInt() : null, demotions,
                retryLane);
        if (problem != null) {
            String property = settings.raw(base + "demote").isPresent() && problem.startsWith("demotion") ? base + "demote"
                    : settings.raw(base + "retry.lane").isPresent() && problem.startsWith("retries") ? base + "retry.lane"
                    : defaultText.isPresent() ? base + "default-lane" : text.isPresent() ? base + "lanes" : base + "capacity";
            throw new InvalidSettingException(property, settings.raw(property).orElse(""), "lanes that fit the policy: " + problem);
        }
        return new Lanes(lanes, lanes.isEmpty() ? null : defaultLane);
    }

    /**
     * The declared retries with standalone.xml's constants over them: {@code retry.interval} (seconds,
     * {@code exponential} or {@code none}) replaces the kind, {@code retry.max-retries} the limit; a
     * limit alone on a policy that declares no retries means exponential retries.
     */
    private Retries retries(String base, Retries declared) {
        Optional<String> interval = settings.raw(base + "retry.interval").map(String::strip);
        Optional<String> max = settings.raw(base + "retry.max-retries").map(String::strip);
        Optional<String> lane = settings.raw(base + "retry.lane").map(String::strip).filter(v -> !v.isEmpty());
        if (interval.isEmpty() && max.isEmpty()) {
            return lane.map(declared::inLane).orElse(declared);
        }
        Retries kind = interval.map(v -> retryInterval(base + "retry.interval", v))
                .orElse(declared.declared() ? declared : Retries.exponential());
        int limit = max.map(v -> nonNegativeInt(base + "retry.max-retries", v))
                .orElse(declared.declared() ? declared.maxRetries() : Retries.DEFAULT_MAX_RETRIES);
        Retries configured = kind.maxRetries(limit);
        Optional<String> inLane = lane.or(declared::lane);
        return inLane.isPresent() ? configured.inLane(inLane.get()) : configured;
    }

    private static Retries retryInterval(String property, String value) {
        if (value.equalsIgnoreCase("exponential")) {
            return Retries.exponential();
        }
        if (value.equalsIgnoreCase("none")) {
            return Retries.none();
        }
        try {
            double seconds = Double.parseDouble(value);
            if (seconds >= 0 && Double.isFinite(seconds)) {
                return Retries.fixed(Duration.ofMillis(Math.round(seconds * 1000)));
            }
        } catch (NumberFormatException ignored) {
            // reported below with the property's name
        }
        throw new InvalidSettingException(property, value, "a number of seconds >= 0, exponential or none");
    }

    private static int nonNegativeInt(String property, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the property's name
        }
        throw new InvalidSettingException(property, value, "a whole number >= 0");
    }

    private static FairnessMeasure fairnessMeasure(String property, String value) {
        try {
            return FairnessMeasure.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(property, value, "admissions or usage");
        }
    }

    private static RetryStrategy retryStrategy(String property, String value) {
        try {
            return RetryStrategy.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(property, value, "restage or bypass");
        }
    }

    /** Policies declared entirely in standalone.xml: one per {@code dispatch.policy.<name>.jobs}. */
    public List<Policy> configuredPolicies() {
        List<Policy> policies = new java.util.ArrayList<>();
        for (String property : settings.propertyNames(PREFIX)) {
            if (!property.endsWith(".jobs")) {
                continue;
            }
            String name = property.substring(PREFIX.length(), property.length() - ".jobs".length());
            String base = PREFIX + name + ".";
            String[] jobs = Arrays.stream(settings.raw(property).orElse("").split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toArray(String[]::new);
            String partitionBy = settings.raw(base + "partition-by").map(String::strip).filter(s -> !s.isEmpty())
                    .orElseThrow(() -> new InvalidSettingException(base + "partition-by", "",
                            "the job parameter that names the partition (required for a policy declared in standalone.xml)"));
            // the job parameter that names the shard, if the policy is sharded (ADR 0014)
            String shardBy = settings.raw(base + "shard-by").map(String::strip).filter(s -> !s.isEmpty()).orElse(null);
            Policy.Builder builder = Policy.named(name)
                    .governs(jobs)
                    .context(params -> {
                        Map<String, Object> ctx = new HashMap<>();
                        ctx.put(partitionBy, params.getProperty(partitionBy));
                        if (shardBy != null) {
                            ctx.put(shardBy, params.getProperty(shardBy));
                        }
                        return ctx;
                    })
                    .partitionBy(ctx -> ctx.get(partitionBy));
            if (shardBy != null) {
                builder.shardBy(ctx -> ctx.get(shardBy));
            }
            for (String type : settings.raw(base + "gates").map(v -> v.split(",")).orElse(new String[0])) {
                builder.gate(configuredGate(base, type.strip()));
            }
            policies.add(builder.build());
        }
        return policies;
    }

    /**
     * A gate whose values all come from {@code dispatch.policy.<p>.gate.<id>.<param>}; the declared
     * parameters only say a value is required (they fail if no property supplies one).
     */
    private static Gate configuredGate(String base, String type) {
        Param required = ctx -> {
            throw new IllegalStateException("set " + base + "gate.<id>.<param>");
        };
        switch (type) {
            case "throttle":
                return new Gate.Throttle(null, required, required);
            case "concurrency":
                return new Gate.Concurrency(null, required, Param.constant(1));
            case "adaptive-concurrency":
                return new Gate.AdaptiveConcurrency(null, required, required, Param.constant(1), null);
            default:
                throw new InvalidSettingException(base + "gates", type, "throttle, concurrency or adaptive-concurrency");
        }
    }
}
