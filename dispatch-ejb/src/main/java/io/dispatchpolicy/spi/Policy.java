package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A declared admission policy: which job XMLs it governs, how a job's parameters become a context,
 * and which partition of that context each job belongs to.
 *
 * <p>Declare one as a CDI producer in any bean archive the engine can see (the engine's own EJB jar,
 * another EJB jar of the same EAR, or an EAR library):
 * <pre>{@code
 * @Produces
 * Policy reports() {
 *     return Policy.named("reports")
 *             .governs("tenant-report")
 *             .context(params -> Map.of("tenant", params.getProperty("tenant")))
 *             .partitionBy(ctx -> ctx.get("tenant"))
 *             .gate(Gate.throttle(100, Duration.ofMinutes(1)))
 *             .gate(Gate.concurrency(5))
 *             .build();
 * }
 * }</pre>
 */
public final class Policy {

    /** The highest cost a job can have (ADR 0035): more batch threads than any server's pool has. */
    public static final int MAX_COST = 10_000;

    /** The longest a job can wait for admission before it expires: ten years, the submission horizon. */
    public static final Duration MAX_EXPIRY = Duration.ofDays(3653);


    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    private final String name;
    private final Set<String> jobNames;
    private final ContextFunction context;
    private final PartitionFunction partitionBy;
    private final ShardFunction shardBy;
    private final PriorityFunction priority;
    private final PriorityAging aging;
    private final PriorityOffsetFunction priorityOffset;
    private final Integer admissionBatchSize;
    private final List<DeclaredGate> gates;
    private final List<String> limits;
    private final List<String> adaptiveGateIds;
    private final boolean countsInFlight;
    private final Duration fairnessHalfLife;
    private final boolean fairnessDisabled;
    private final FairnessMeasure fairnessMeasure;
    private final Integer tickAdmissionBudget;
    private final Integer capacity;
    private final List<Lane> lanes;
    private final String defaultLane;
    private final TenantFunction tenant;
    private final List<Demotion> demotions;
    private final boolean demotionOverridesLane;
    private final RetryStrategy retryStrategy;
    private final Retries retries;
    private final Timeouts timeouts;
    private final Map<String, Integer> costs;
    private final ItemRate itemRate;
    private final KeyFunction uniqueBy;
    private final Uniqueness uniqueness;
    private final Duration expireAfter;
    private final KeyFunction debounceBy;
    private final Debounce debounce;
    private final BacklogCap backlogCap;

    private Policy(Builder b) {
        this.name = b.name;
        this.jobNames = Collections.unmodifiableSet(new LinkedHashSet<>(b.jobNames));
        this.context = b.context;
        this.partitionBy = b.partitionBy;
        this.shardBy = b.shardBy;
        this.priority = b.priority;
        this.aging = b.aging;
        this.priorityOffset = b.priorityOffset;
        this.admissionBatchSize = b.admissionBatchSize;
        this.gates = List.copyOf(b.gates);
        this.limits = List.copyOf(b.limits);
        // facts of the declaration that admission and every job's completion ask for: derived once
        this.adaptiveGateIds = gates.stream().filter(g -> g.gate() instanceof Gate.AdaptiveConcurrency)
                .map(DeclaredGate::id).toList();
        this.countsInFlight = gates.stream().anyMatch(g -> !(g.gate() instanceof Gate.Throttle || g.gate() instanceof Gate.Quota));
        this.fairnessHalfLife = b.fairnessHalfLife;
        this.fairnessDisabled = b.fairnessDisabled;
        this.fairnessMeasure = b.fairnessMeasure;
        this.tickAdmissionBudget = b.tickAdmissionBudget;
        this.capacity = b.capacity;
        this.lanes = List.copyOf(b.lanes);
        this.defaultLane = b.defaultLane != null ? b.defaultLane : lanes.isEmpty() ? null : lanes.get(0).name();
        this.tenant = b.tenant;
        this.demotions = List.copyOf(b.demotions);
        this.demotionOverridesLane = b.demotionOverridesLane;
        this.retryStrategy = b.retryStrategy;
        this.retries = b.retries;
        this.timeouts = b.timeouts;
        this.costs = Map.copyOf(b.costs);
        this.itemRate = b.itemRate;
        this.uniqueBy = b.uniqueBy;
        this.uniqueness = b.uniqueness;
        this.expireAfter = b.expireAfter;
        this.debounceBy = b.debounceBy;
        this.debounce = b.debounce;
        this.backlogCap = b.backlogCap;
    }

    /** The uniqueness key of a job of this policy, from its parameters; null without one (ADR 0036). */
    public KeyFunction uniqueBy() {
        return uniqueBy;
    }

    /** What the policy's uniqueness keys cover; null without {@link #uniqueBy()}. */
    public Uniqueness uniqueness() {
        return uniqueness;
    }

    /** How long after staging a job of this policy may wait to be admitted before it expires; empty: forever. */
    public Optional<Duration> expireAfter() {
        return Optional.ofNullable(expireAfter);
    }

    /** The debounce key of a job of this policy, from its parameters; null without debounce. */
    public KeyFunction debounceBy() {
        return debounceBy;
    }

    /** The policy's debounce; null without {@link #debounceBy()}. */
    public Debounce debounce() {
        return debounce;
    }

    /** The most jobs staged per partition, and what a submission over it does; empty: no cap. */
    public Optional<BacklogCap> backlogCap() {
        return Optional.ofNullable(backlogCap);
    }

    /** Name of the built-in policy that occurrences of schedules of ungoverned jobs go through (ADR 0012). */
    public static final String SCHEDULES = "dispatch-schedules";

    /** The job parameter naming the schedule an occurrence belongs to (set by the engine on every occurrence). */
    public static final String SCHEDULE_PARAMETER = "dispatch.schedule";

    /**
     * The built-in pass-through policy for schedules whose job no policy governs: no gates, one partition
     * per schedule (so one schedule's catch-up never waits behind another's); its capacity can be set
     * with {@code dispatch.policy.dispatch-schedules.capacity}. It governs no job of its own.
     */
    public static Policy forUngovernedSchedules() {
        Builder b = new Builder(SCHEDULES)
                .context(params -> {
                    Map<String, Object> context = new java.util.HashMap<>();
                    context.put("schedule", params.getProperty(SCHEDULE_PARAMETER));
                    return context;
                })
                .partitionBy(context -> context.get("schedule"));
        return new Policy(b);
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** Job XML names (without {@code .xml}) this policy governs. */
    public Set<String> jobNames() {
        return jobNames;
    }

    /** Per-policy override of {@code dispatch.admission-batch-size}. */
    public OptionalInt admissionBatchSize() {
        return admissionBatchSize == null ? OptionalInt.empty() : OptionalInt.of(admissionBatchSize);
    }

    /** Gates in declared order, with their ids. */
    /** The names of the shared limits its jobs pass besides its gates (ADR 0049), in declared order. */
    public List<String> limits() {
        return limits;
    }

    public List<DeclaredGate> gates() {
        return gates;
    }

    /** Ids of the adaptive concurrency gates, in declared order. */
    public List<String> adaptiveGateIds() {
        return adaptiveGateIds;
    }

    /** True when a gate needs the partition's in-flight count (every gate but a throttle). */
    public boolean countsInFlight() {
        return countsInFlight;
    }

    /** Per-policy fairness half-life; empty means the global setting. */
    public Optional<Duration> fairnessHalfLife() {
        return Optional.ofNullable(fairnessHalfLife);
    }

    /** True when this policy's partitions are processed in claim order, without the EWMA reorder. */
    public FairnessMeasure fairnessMeasure() {
        return fairnessMeasure;
    }

    public boolean fairnessDisabled() {
        return fairnessDisabled;
    }

    /** Per-policy admissions per tick; empty means the global {@code dispatch.tick-admission-budget}. */
    public OptionalInt tickAdmissionBudget() {
        return tickAdmissionBudget == null ? OptionalInt.empty() : OptionalInt.of(tickAdmissionBudget);
    }

    /** At most this many of the policy's jobs in flight at once, cluster-wide; empty: no policy-wide limit. */
    public OptionalInt capacity() {
        return capacity == null ? OptionalInt.empty() : OptionalInt.of(capacity);
    }

    /** The declared lanes, in declared order; empty when the policy has none. */
    public List<Lane> lanes() {
        return lanes;
    }

    /** The lane of a job that names none: the one marked default, else the first declared; null without lanes. */
    public String defaultLane() {
        return defaultLane;
    }

    /** The tenant demotion rules count for; null means the partition key. */
    public TenantFunction tenantFunction() {
        return tenant;
    }

    /** Demotion rules, in declared order (the last matching one wins). */
    public List<Demotion> demotions() {
        return demotions;
    }

    /** True when demotion also moves a submission whose caller named a lane (default: the caller's lane is kept). */
    public boolean demotionOverridesLane() {
        return demotionOverridesLane;
    }

    public RetryStrategy retryStrategy() {
        return retryStrategy;
    }

    /** How a job whose execution ends FAILED is retried; {@link Retries#none()} unless declared. */
    public Retries retries() {
        return retries;
    }

    /** How long its jobs may run, and go without a checkpoint; {@link Timeouts#none()} unless declared (ADR 0030). */
    public Timeouts timeouts() {
        return timeouts;
    }

    /** The declared cost of each job name that has one ({@link Builder#cost}); others cost what their job XML says. */
    public Map<String, Integer> costs() {
        return costs;
    }

    /** The item-level throttle of its chunk steps, per partition (ADR 0034); empty unless declared. */
    public Optional<ItemRate> itemRate() {
        return Optional.ofNullable(itemRate);
    }

    public ContextFunction contextFunction() {
        return context;
    }

    /** The shard of a job's partition, or null when the policy is not sharded (its partitions have shard {@code ""}). */
    public ShardFunction shardFunction() {
        return shardBy;
    }

    public PartitionFunction partitionFunction() {
        return partitionBy;
    }

    /** How waiting jobs gain priority, if the policy ages them. */
    public Optional<PriorityAging> priorityAging() {
        return Optional.ofNullable(aging);
    }

    /** How much earlier or later than submitted each job is ordered, if the policy says (ADR 0046). */
    public Optional<PriorityOffsetFunction> priorityOffsetFunction() {
        return Optional.ofNullable(priorityOffset);
    }

    /** The priority function; without one every job of the policy has priority 0. */
    public PriorityFunction priorityFunction() {
        return priority;
    }

    /**
     * What is wrong with a set of lanes, or null: a demotion rule, retry lane or default lane naming a lane that is
     * not declared, or minimums that need a capacity or add up to more than it.
     */
    public static String lanesProblem(List<Lane> lanes, String defaultLane, Integer capacity, List<Demotion> demotions,
                                      String retryLane) {
        if (retryLane != null && lanes.stream().noneMatch(l -> l.name().equals(retryLane))) {
            return "retries go to lane '" + retryLane + "', which is not one of its lanes " + lanes.stream().map(Lane::name).toList();
        }
        for (Demotion rule : demotions) {
            if (lanes.stream().noneMatch(l -> l.name().equals(rule.lane()))) {
                return "demotion rule " + rule.describe() + " sends to lane '" + rule.lane() + "', which is not one of its lanes "
                        + lanes.stream().map(Lane::name).toList();
            }
        }
        if (defaultLane != null && lanes.stream().noneMatch(l -> l.name().equals(defaultLane))) {
            return "default lane '" + defaultLane + "' is not one of its lanes " + lanes.stream().map(Lane::name).toList();
        }
        int mins = lanes.stream().mapToInt(Lane::min).sum();
        if (mins > 0 && capacity == null) {
            return "lanes reserve " + mins + " slot(s) with min(…) but the policy has no capacity to reserve them from";
        }
        if (capacity != null && mins > capacity) {
            return "the lanes' minimums add up to " + mins + ", more than the capacity " + capacity;
        }
        if (capacity == null && lanes.stream().anyMatch(Lane::limited)) {
            return "lane '" + lanes.stream().filter(Lane::limited).findFirst().get().name()
                    + "' has a lending or borrowing limit but the policy has no capacity to lend or borrow from";
        }
        return null;
    }

    /** Strips a trailing {@code .xml}, the one spelling difference Jakarta Batch allows in job names. */
    public static String jobName(String jobXmlName) {
        return jobXmlName != null && jobXmlName.endsWith(".xml")
                ? jobXmlName.substring(0, jobXmlName.length() - 4) : jobXmlName;
    }

    @Override
    public String toString() {
        return "Policy[" + name + " governs " + jobNames + "]";
    }

    public static final class Builder {
        private final String name;
        private final Set<String> jobNames = new LinkedHashSet<>();
        private ContextFunction context = Builder::allParameters;
        private PartitionFunction partitionBy;
        private ShardFunction shardBy;
        private PriorityFunction priority = context -> 0;
        private PriorityAging aging;
        private PriorityOffsetFunction priorityOffset;
        private Integer admissionBatchSize;
        private final List<DeclaredGate> gates = new ArrayList<>();
        private final List<String> limits = new ArrayList<>();
        private final Map<String, Integer> gatesPerType = new HashMap<>();
        private final Set<String> gateIds = new HashSet<>();
        private Duration fairnessHalfLife;
        private boolean fairnessDisabled;
        private FairnessMeasure fairnessMeasure = FairnessMeasure.ADMISSIONS;
        private Integer tickAdmissionBudget;
        private Integer capacity;
        private final List<Lane> lanes = new ArrayList<>();
        private String defaultLane;
        private TenantFunction tenant;
        private final List<Demotion> demotions = new ArrayList<>();
        private boolean demotionOverridesLane;
        private RetryStrategy retryStrategy = RetryStrategy.RESTAGE;
        private Retries retries = Retries.none();
        private Timeouts timeouts = Timeouts.none();
        private final Map<String, Integer> costs = new HashMap<>();
        private ItemRate itemRate;
        private KeyFunction uniqueBy;
        private Uniqueness uniqueness;
        private Duration expireAfter;
        private KeyFunction debounceBy;
        private Debounce debounce;
        private BacklogCap backlogCap;

        private Builder(String name) {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new PolicyDeclarationException("Policy name '" + name
                        + "' is invalid: use 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit");
            }
            this.name = name;
        }

        /** Job XML names this policy governs; each may be governed by one policy only. */
        public Builder governs(String... jobXmlNames) {
            for (String job : jobXmlNames) {
                if (job == null || job.isBlank()) {
                    throw new PolicyDeclarationException("Policy '" + name + "' governs a null or blank job name");
                }
                jobNames.add(jobName(job.strip()));
            }
            return this;
        }

        /** Context function; the default exposes every job parameter as a string. */
        public Builder context(ContextFunction context) {
            this.context = Objects.requireNonNull(context, "context");
            return this;
        }

        /** Required: the partition every gate of this policy enforces against. */
        public Builder partitionBy(PartitionFunction partitionBy) {
            this.partitionBy = Objects.requireNonNull(partitionBy, "partitionBy");
            return this;
        }

        /**
         * Splits the policy's partitions between nodes: a node whose {@code dispatch.shards} names shards
         * admits only partitions of those shards (a node without it admits every shard). A partition's
         * shard is the one of its newest job's context; its gates live with the partition, so a rate or a
         * cap is never multiplied by the number of shards, but the function should give one shard per
         * partition (ADR 0014).
         */
        public Builder shardBy(ShardFunction shardBy) {
            this.shardBy = Objects.requireNonNull(shardBy, "shardBy");
            return this;
        }

        /**
         * Each job's priority from its context (default 0): higher goes first within a partition, and a
         * partition's highest waiting priority orders the claim. Strict: see ADR 0009.
         */
        public Builder priority(PriorityFunction priority) {
            this.priority = Objects.requireNonNull(priority, "priority");
            return this;
        }

        /**
         * Each job's priority offset from its context: ordered within its priority as if submitted that much
         * earlier (positive) or later (negative), so urgency is bounded by construction — an offset job overtakes
         * only work newer than its offset (ADR 0046). A {@code null} result is no offset; more than
         * {@code SubmitOption.HORIZON} either way rejects the submission. {@code SubmitOption.priorityOffset}
         * overrides it.
         */
        public Builder priorityOffset(PriorityOffsetFunction offset) {
            this.priorityOffset = Objects.requireNonNull(offset, "priorityOffset");
            return this;
        }

        /**
         * Ages waiting jobs: each gains {@code step} priority for every {@code every} it waits, up to
         * {@code cap}, so low priorities are not starved forever. Raised in the background about once a
         * second (ADR 0009), never computed in the claim.
         */
        public Builder agePriority(Duration every, int step, int cap) {
            this.aging = new PriorityAging(every, step, cap);
            return this;
        }

        /** Caps how many jobs of one partition are admitted in one tick iteration. */
        public Builder admissionBatchSize(int size) {
            if (size < 1) {
                throw new PolicyDeclarationException("Policy '" + name + "': admissionBatchSize must be >= 1, was " + size);
            }
            this.admissionBatchSize = size;
            return this;
        }

        /** Adds a gate; gates run in the order they are added. */
        public Builder gate(Gate gate) {
            Objects.requireNonNull(gate, "gate");
            int nth = gatesPerType.merge(gate.type(), 1, Integer::sum);
            String id = gate.name() != null ? gate.name() : nth == 1 ? gate.type() : gate.type() + "-" + nth;
            if (!NAME.matcher(id).matches() || !gateIds.add(id)) {
                throw new PolicyDeclarationException("Policy '" + name + "': gate id '" + id + "' is invalid or used twice");
            }
            gates.add(new DeclaredGate(id, gate));
            return this;
        }

        /**
         * Its jobs pass the shared limit of this name too (ADR 0049): a {@link Limit} declared once, as a CDI producer
         * or in standalone.xml, and referenced by every policy whose jobs it bounds. A name no limit has fails the
         * deployment. A job is admitted only when its gates and every limit allow it; a refusal charges none.
         */
        public Builder limit(String name) {
            Objects.requireNonNull(name, "name");
            if (limits.contains(name)) {
                throw new PolicyDeclarationException("Policy '" + this.name + "': limit '" + name + "' is referenced twice");
            }
            limits.add(name);
            return this;
        }

        /** Half-life of the decayed-admits average that orders this policy's partitions (default: global). */
        public Builder fairness(Duration halfLife) {
            if (halfLife == null || halfLife.isNegative() || halfLife.isZero()) {
                throw new PolicyDeclarationException("Policy '" + name + "': fairness half-life must be positive");
            }
            this.fairnessHalfLife = halfLife;
            this.fairnessDisabled = false;
            return this;
        }

        /**
         * What fairness counts (ADR 0048): {@link FairnessMeasure#USAGE} orders this policy's partitions by their decayed
         * slot-seconds — each job's cost times how long it ran — instead of their decayed admissions, so tenants whose
         * jobs differ in length get the same worker time. The half-life stays {@link #fairness}'s (or the global one).
         */
        public Builder fairnessBy(FairnessMeasure measure) {
            this.fairnessMeasure = Objects.requireNonNull(measure, "measure");
            return this;
        }

        /** Processes this policy's partitions in claim order (least recently checked first). */
        public Builder noFairness() {
            this.fairnessHalfLife = null;
            this.fairnessDisabled = true;
            return this;
        }

        /** At most this many admissions per tick across this policy's partitions, shared fairly. */
        public Builder tickAdmissionBudget(int budget) {
            if (budget < 1) {
                throw new PolicyDeclarationException("Policy '" + name + "': tickAdmissionBudget must be >= 1, was " + budget);
            }
            this.tickAdmissionBudget = budget;
            return this;
        }

        /**
         * At most {@code n} of this policy's jobs in flight at once across all its partitions and every
         * node, on top of each partition's gates. A full policy's partitions wait with reason
         * {@code capacity_full}; the free slots of an iteration are shared like its tick budget.
         */
        public Builder capacity(int n) {
            if (n < 1) {
                throw new PolicyDeclarationException("Policy '" + name + "': capacity must be >= 1, was " + n);
            }
            this.capacity = n;
            return this;
        }

        /**
         * Adds a lane: the policy's capacity and tick budget are shared between lanes with admissible
         * work in proportion to their weights (ADR 0011). The first lane declared takes the jobs that
         * name none, unless {@link #defaultLane} says otherwise.
         */
        public Builder lane(String name, int weight) {
            return lane(name, weight, 0);
        }

        /** A lane with {@code min} slots of the capacity reserved for it while it has work. */
        public Builder lane(String name, int weight, int min) {
            Lane lane;
            try {
                lane = new Lane(name, weight, min);
            } catch (PolicyDeclarationException e) {
                // a lane is checked on its own, without its policy: say whose it is, as every other declaration error does
                throw new PolicyDeclarationException("Policy '" + this.name + "': " + e.getMessage());
            }
            return lane(lane);
        }

        public Builder lane(Lane lane) {
            Objects.requireNonNull(lane, "lane");
            if (lanes.stream().anyMatch(l -> l.name().equals(lane.name()))) {
                throw new PolicyDeclarationException("Policy '" + name + "': lane '" + lane.name() + "' is declared twice");
            }
            lanes.add(lane);
            return this;
        }

        /** The lane of jobs that name none (default: the first declared). */
        public Builder defaultLane(String lane) {
            this.defaultLane = Objects.requireNonNull(lane, "lane");
            return this;
        }

        /** Who a job is counted for by demotion rules (default: its partition key). */
        public Builder tenant(TenantFunction tenant) {
            this.tenant = Objects.requireNonNull(tenant, "tenant");
            return this;
        }

        /**
         * Demotes a noisy tenant: when its submissions in the last {@code per} exceed {@code threshold},
         * its new submissions go to {@code lane}. Declare rules from least to most restrictive: of several
         * that match, the last declared wins. Retries are not counted; each job of a bulk call is.
         */
        public Builder demote(int threshold, Duration per, String lane) {
            demotions.add(new Demotion(threshold, per, lane));
            return this;
        }

        /** Demotion also moves submissions whose caller named a lane (by default the caller's choice is kept). */
        public Builder demotionOverridesLane() {
            this.demotionOverridesLane = true;
            return this;
        }

        /** How a restart of this policy's jobs is admitted: through the gates (default) or straight to JBeret. */
        public Builder retryStrategy(RetryStrategy strategy) {
            this.retryStrategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * Retries a job whose execution ends FAILED: {@code Retries.fixed(…)}, {@code exponential()} or
         * {@code custom(…)}, each with {@code maxRetries(n)} (default 10); a job whose retries are spent is dead. Without
         * it a failed job stays FAILED, as JBeret left it: neither retried nor dead.
         */
        public Builder retry(Retries retries) {
            this.retries = Objects.requireNonNull(retries, "retries");
            return this;
        }

        /**
         * Every job of this policy runs at most {@code max} from its start (measured on the database's
         * clock): past it, the execution is stopped, recorded FAILED ("timed out after …") and its slot freed;
         * the retries apply. Shorthand for {@code timeouts(Timeouts.none().run(max))} merged with the others.
         */
        public Builder timeout(Duration max) {
            this.timeouts = timeouts.run(max);
            return this;
        }

        /** A chunk step of this policy's jobs goes at most {@code max} without a checkpoint (ADR 0030). */
        public Builder progressTimeout(Duration max) {
            this.timeouts = timeouts.progress(max);
            return this;
        }

        /**
         * An item-level throttle: the chunk steps of this policy's jobs that draw from it (the listener
         * {@code dispatchItemThrottle}, or {@code ItemThrottle}) read at most {@code rate} items per {@code per} per
         * partition, across all the partition's running jobs on every node (ADR 0034).
         */
        public Builder itemThrottle(double rate, Duration per) {
            this.itemRate = ItemRate.of(rate, per);
            return this;
        }

        /** An item-level throttle with a bucket of its own size ({@link ItemRate}). */
        public Builder itemThrottle(ItemRate rate) {
            this.itemRate = Objects.requireNonNull(rate, "rate");
            return this;
        }

        /**
         * What a job of this name costs: the batch threads it takes at its widest, and so the slots and
         * tokens its admission takes (ADR 0035). Needed for a job whose partitioned step has a partition
         * mapper (its job XML does not say how many partitions run); for any other job it replaces what
         * the job XML says. A submission's {@code SubmitOption.cost} goes before it.
         */
        public Builder cost(String jobName, int threads) {
            if (threads < 1 || threads > MAX_COST) {
                throw new PolicyDeclarationException("Policy '" + name + "': the cost of job '" + jobName + "' must be at least 1 and at most "
                        + MAX_COST + ", was " + threads);
            }
            costs.put(Objects.requireNonNull(jobName, "jobName"), threads);
            return this;
        }

        /**
         * Jobs of this policy with the same key (from their parameters; null or blank: none) are one job while
         * its holder is in a state {@code uniqueness} covers: a duplicate stages nothing and its caller gets
         * the holder's submission id (ADR 0036). A submission's {@code SubmitOption.unique} goes before it.
         */
        public Builder unique(KeyFunction keyBy, Uniqueness uniqueness) {
            this.uniqueBy = Objects.requireNonNull(keyBy, "keyBy");
            this.uniqueness = Objects.requireNonNull(uniqueness, "uniqueness");
            return this;
        }

        /** Unique while staged or running, by these job parameters' values ({@link KeyFunction#parameters}). */
        public Builder uniqueBy(String... parameters) {
            try {
                return unique(KeyFunction.parameters(parameters), Uniqueness.WHILE_LIVE);
            } catch (IllegalArgumentException e) {
                throw new PolicyDeclarationException("Policy '" + name + "': uniqueBy: " + e.getMessage());
            }
        }

        /**
         * A job of this policy not admitted within {@code max} of its staging expires: it never runs, and is
         * kept as EXPIRED for {@code dispatch.dead-retention}. A delayed job's wait counts from its due time.
         * A submission's {@code SubmitOption.deadline} or {@code expireAfter} goes before it.
         */
        public Builder expireAfter(Duration max) {
            if (max == null || max.isZero() || max.isNegative() || max.compareTo(MAX_EXPIRY) > 0) {
                throw new PolicyDeclarationException("Policy '" + name + "': expireAfter must be more than 0 and at most "
                        + MAX_EXPIRY.toDays() + " days, was " + max);
            }
            this.expireAfter = max;
            return this;
        }

        /**
         * Jobs of this policy with the same key (from their parameters) are debounced: while one is staged and
         * not yet due, the next replaces its parameters and pushes it back (ADR 0036, {@link Debounce}).
         */
        public Builder debounce(KeyFunction keyBy, Duration period, Duration maxWait) {
            this.debounceBy = Objects.requireNonNull(keyBy, "keyBy");
            try {
                this.debounce = new Debounce(period, maxWait);
            } catch (IllegalArgumentException e) {
                throw new PolicyDeclarationException("Policy '" + name + "': " + e.getMessage());
            }
            return this;
        }

        /** At most {@code max} jobs staged per partition; {@code overflow} says what a submission past it does. */
        public Builder backlogCap(int max, BacklogCap.Overflow overflow) {
            try {
                this.backlogCap = new BacklogCap(max, overflow);
            } catch (IllegalArgumentException e) {
                throw new PolicyDeclarationException("Policy '" + name + "': " + e.getMessage());
            }
            return this;
        }

        /** The timeouts, per job name where they differ ({@link Timeouts}); replaces what was declared before. */
        public Builder timeouts(Timeouts timeouts) {
            this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
            return this;
        }

        public Policy build() {
            if (jobNames.isEmpty()) {
                throw new PolicyDeclarationException("Policy '" + name + "' governs no job: call governs(...)");
            }
            for (String job : costs.keySet()) {
                if (!jobNames.contains(job)) {
                    throw new PolicyDeclarationException("Policy '" + name + "' declares a cost for job '" + job
                            + "', which it does not govern (it governs " + jobNames + ")");
                }
            }
            for (String job : timeouts.jobNames()) {
                if (!jobNames.contains(job)) {
                    throw new PolicyDeclarationException("Policy '" + name + "' declares a timeout for job '" + job
                            + "', which it does not govern (it governs " + jobNames + ")");
                }
            }
            if (partitionBy == null) {
                throw new PolicyDeclarationException("Policy '" + name + "' has no partitionBy: it is required");
            }
            if (uniqueBy != null && debounceBy != null) {
                throw new PolicyDeclarationException("Policy '" + name + "' declares both a uniqueness key and a debounce key: "
                        + "a job is either unique or debounced");
            }
            String problem = lanesProblem(lanes, defaultLane, capacity, demotions, retries.lane().orElse(null));
            if (problem != null) {
                throw new PolicyDeclarationException("Policy '" + name + "': " + problem);
            }
            return new Policy(this);
        }

        private static Map<String, ?> allParameters(Properties parameters) {
            Map<String, String> all = new TreeMap<>();
            for (String key : parameters.stringPropertyNames()) {
                all.put(key, parameters.getProperty(key));
            }
            return all;
        }
    }
}
