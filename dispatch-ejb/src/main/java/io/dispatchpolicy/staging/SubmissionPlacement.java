package io.dispatchpolicy.staging;

import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.domain.shard.ShardNames;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Where a job goes, as its policy decides: the checks a submission passes before anything is written
 * (the job XML exists, the context function succeeds and yields a partition key, the lane exists), and
 * the submission they make. Shared by staging and by schedules' occurrences, and a plain CDI bean so
 * that the tick's admission (which chains occurrences) never calls an EJB that may already be stopping.
 */
@ApplicationScoped
public class SubmissionPlacement {

    private static final Logger LOG = Logger.getLogger(SubmissionPlacement.class.getName());
    static final Duration SPLIT_WARNING_EVERY = Duration.ofMinutes(10);
    private final Map<String, Long> splitWarnedAt = new ConcurrentHashMap<>();

    /** Longest partition key accepted: keys are shown, indexed and compared on every enqueue. */
    public static final int MAX_PARTITION_KEY_LENGTH = 256;

    @Inject
    JobRuntime runtime;

    @Inject
    HeldPolicies policies;

    @Inject
    PolicyRegistry registry;

    @Inject
    io.dispatchpolicy.policy.PolicySettings policySettings;

    @Inject
    io.dispatchpolicy.infrastructure.jberet.BatchThreads batchThreads;

    /** Jobs whose job XML does not say what they cost, by policy and job name: each reported once. */
    private final java.util.Set<String> unknownCostReported = ConcurrentHashMap.newKeySet();

    /**
     * Where a job of these parameters would be staged, checked as a submission is (job XML, parameters,
     * context, partition key, priority, lane), without writing anything.
     *
     * @param priority the caller's priority, else null (the policy's priority function decides)
     * @param lane     the caller's lane, else null (the policy's default)
     */
    public Submission place(Policy policy, String jobXmlName, Properties parameters, Integer priority, String lane) {
        String jobName = knownJob(jobXmlName);
        JobParameters validated = JobParameters.of(parameters);
        String placed = lane(policy, lane != null || registry.hasLanes(policy)
                ? policies.effectiveIfDeclared(policy.name()) : Optional.empty(), lane);
        return assign(policy, jobName, validated, validated, priority == null ? OptionalInt.empty() : OptionalInt.of(priority),
                null, null, placed, OptionalInt.empty(), null);
    }

    /** The job XML name without {@code .xml}, refused when no job XML of that name is visible. */
    public String knownJob(String jobXmlName) {
        String jobName = JobXmlName.require(jobXmlName);
        if (!runtime.knowsJob(jobName)) {
            throw new SubmissionRejectedException("Unknown job XML name '" + jobName
                    + "': no META-INF/batch-jobs/" + jobName + ".xml is visible to the dispatch engine");
        }
        return jobName;
    }

    /**
     * The lane a submission goes to, by the policy's lanes in force (its declared ones while a setting
     * of it is invalid: a submission is not refused for an operator's typo).
     */
    public String lane(Policy policy, Optional<EffectivePolicy> effective, String named) {
        if (named == null && !registry.hasLanes(policy)) {
            return ""; // the common case
        }
        try {
            return effective.isPresent() ? effective.get().laneFor(named)
                    : EffectivePolicy.laneFor(policy.name(), policy.lanes(), policy.defaultLane(), named);
        } catch (IllegalArgumentException e) {
            throw new SubmissionRejectedException("Unknown lane: " + e.getMessage());
        }
    }

    /**
     * @param effective the parameters the job will run with: what the policy sees
     * @param stored    the parameters to stage (for a restart, only the restart's own)
     * @param priority  the caller's priority, else the policy's priority function decides
     * @param delayMillis when the job is due, after staging; null with {@code atMillis} null: at once
     * @param atMillis    when the job is due, epoch ms
     * @param cost        the caller's cost ({@code SubmitOption.cost}), else the policy's or the job XML's counts
     * @param offset      the caller's priority offset (checked), else null: the policy's offset function decides
     */
    public Submission assign(Policy policy, String jobName, JobParameters effective, JobParameters stored,
                             OptionalInt priority, Long delayMillis, Long atMillis, String lane, OptionalInt cost,
                             Duration offset) {
        Map<String, ?> raw = call(policy, jobName, "the context function", () -> policy.contextFunction().apply(effective.toProperties()));
        Map<String, Object> context = raw == null ? Map.of() : new LinkedHashMap<>(raw);
        Object key = call(policy, jobName, "partitionBy", () -> policy.partitionFunction().apply(context));
        String partitionKey = key == null ? null : key.toString();
        if (partitionKey == null || partitionKey.isBlank()) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': partitionBy gave a "
                    + (partitionKey == null ? "null" : "blank") + " partition key for job '" + jobName
                    + "' (context " + context + ")");
        }
        if (partitionKey.length() > MAX_PARTITION_KEY_LENGTH) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': partition key of "
                    + partitionKey.length() + " characters exceeds " + MAX_PARTITION_KEY_LENGTH);
        }
        int effectivePriority = priority.isPresent() ? priority.getAsInt()
                : call(policy, jobName, "the priority function", () -> policy.priorityFunction().apply(context));
        Duration ordered = offset != null ? offset : policy.priorityOffsetFunction()
                .map(f -> call(policy, jobName, "the priority offset function", () -> f.apply(context))).orElse(null);
        if (ordered != null && offset == null) {
            SubmitOption.checkedOffset("Policy '" + policy.name() + "': its priority offset function for job '" + jobName + "'", ordered);
        }
        Cost threads = cost(policy, jobName, effective, cost);
        if (threads.threads() > 1) {
            checkFits(policy, jobName, threads, context);
        }
        return new Submission(jobName, stored, partitionKey, lane, JsonCodec.write(context), effectivePriority, delayMillis,
                atMillis, tenant(policy, jobName, context, partitionKey), shard(policy, jobName, context), threads.threads(),
                ordered == null ? 0 : ordered.toMillis());
    }

    /** A job's cost and who said it, for the error that refuses it. */
    private record Cost(int threads, String source) {
    }

    /**
     * What the job costs (ADR 0035): the caller's {@code SubmitOption.cost}, else its policy's for its job
     * name (standalone.xml over the declaration), else the batch threads its job XML takes at its widest
     * (1 + a partitioned step's partitions, with these parameters). A job XML that cannot tell (a partition
     * mapper) counts 1, reported once per policy and job name: it cannot be refused for what it never said.
     */
    private Cost cost(Policy policy, String jobName, JobParameters effective, OptionalInt own) {
        if (own.isPresent()) {
            return new Cost(own.getAsInt(), "its SubmitOption.cost");
        }
        OptionalInt byPolicy = policySettings.costOf(policy, jobName);
        if (byPolicy.isPresent()) {
            return new Cost(byPolicy.getAsInt(), "its policy's cost for it");
        }
        OptionalInt byXml;
        try {
            byXml = io.dispatchpolicy.infrastructure.jberet.JobThreads.of(runtime.loadJob(jobName), effective.toProperties());
        } catch (RuntimeException unparsable) {
            return new Cost(1, "unknown"); // its admission reports the job XML's fault, as it always has
        }
        if (byXml.isPresent()) {
            return new Cost(byXml.getAsInt(), "its job XML");
        }
        if (unknownCostReported.add(policy.name() + "/" + jobName)) {
            LOG.warning(() -> "Job '" + jobName + "' of policy '" + policy.name() + "': its job XML does not say how many batch "
                    + "threads it takes (a partition mapper, or a number this cannot read); it counts as 1. Declare its cost: "
                    + "Policy.Builder.cost(\"" + jobName + "\", n) or dispatch.policy." + policy.name() + ".cost." + jobName);
        }
        return new Cost(1, "unknown");
    }

    /**
     * Refuses a job that costs more than a limit of its policy ever allows — a concurrency gate's max, a
     * throttle's bucket, an adaptive gate's ceiling, the policy's capacity — or more threads than this node
     * admits at once: staged, it would wait forever. The gates as they stand for its context; an
     * operator's override of one partition, or a limit lowered later, leaves it waiting, with the reason.
     */
    private void checkFits(Policy policy, String jobName, Cost cost, Map<String, Object> context) {
        Optional<EffectivePolicy> effective = policies.effectiveIfDeclared(policy.name());
        List<io.dispatchpolicy.domain.gate.ResolvedGate> gates = List.of();
        if (effective.isPresent()) {
            try {
                // as admission resolves them: from the context as stored (JSON scalars)
                gates = effective.get().resolveGates(JsonCodec.readScalars(JsonCodec.write(context)));
            } catch (RuntimeException e) {
                gates = List.of(); // a gate parameter the context lacks: admission reports it, as for any job
            }
        }
        String refused = null;
        for (io.dispatchpolicy.domain.gate.ResolvedGate gate : gates) {
            if (gate instanceof io.dispatchpolicy.domain.gate.ResolvedGate.Concurrency c && c.max() < cost.threads()) {
                refused = "its concurrency gate '" + c.id() + "' allows " + c.max() + " at most";
            } else if (gate instanceof io.dispatchpolicy.domain.gate.ResolvedGate.Throttle t && t.rate() > 0
                    && io.dispatchpolicy.domain.gate.TokenBucket.capacity(t.rate()) < cost.threads()) {
                refused = "its throttle '" + t.id() + "' holds " + (long) Math.floor(io.dispatchpolicy.domain.gate.TokenBucket.capacity(t.rate()))
                        + " tokens at most";
            } else if (gate instanceof io.dispatchpolicy.domain.gate.ResolvedGate.Quota q && q.max() > 0 && q.max() < cost.threads()) {
                refused = "its quota '" + q.id() + "' allows " + q.max() + " a " + q.period().label() + " at most";
            } else if (gate instanceof io.dispatchpolicy.domain.gate.ResolvedGate.Adaptive a && a.params().ceiling() > 0
                    && a.params().ceiling() < cost.threads()) {
                refused = "its adaptive gate '" + a.id() + "' allows " + a.params().ceiling() + " at most";
            }
            if (refused != null) {
                break;
            }
        }
        if (refused == null && effective.isPresent() && effective.get().capacity().isPresent()
                && effective.get().capacity().getAsInt() < cost.threads()) {
            refused = "its capacity is " + effective.get().capacity().getAsInt();
        }
        int nodeThreads = batchThreads.size();
        if (refused == null && nodeThreads < cost.threads()) {
            refused = "this node admits jobs of at most " + nodeThreads + " batch threads (dispatch.node-threads)";
        }
        if (refused != null) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': job '" + jobName + "' costs " + cost.threads()
                    + " batch threads (" + cost.source() + ") but " + refused + ": it could never be admitted");
        }
    }

    /** The shard of the job's partition by the policy's shardBy; {@code ""} when the policy is not sharded. */
    private static String shard(Policy policy, String jobName, Map<String, Object> context) {
        if (policy.shardFunction() == null) {
            return "";
        }
        Object shard = call(policy, jobName, "shardBy", () -> policy.shardFunction().apply(context));
        String name = shard == null ? null : shard.toString();
        String problem = ShardNames.problem(name);
        if (problem != null) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': shardBy gave " + problem + " for job '"
                    + jobName + "' (context " + context + ")");
        }
        return name;
    }

    /**
     * Warns (at most once per policy per {@link #SPLIT_WARNING_EVERY}) when one call gives jobs of one
     * partition different shards: its partition is admitted by one shard at a time, its newest job's, so
     * the gates still hold, but the node it goes to changes from call to call (ADR 0014).
     */
    public void checkShards(Policy policy, List<Submission> submissions) {
        if (policy.shardFunction() == null || submissions.size() < 2) {
            return;
        }
        Map<String, String> shardByKey = new HashMap<>();
        for (Submission s : submissions) {
            String before = shardByKey.putIfAbsent(s.partitionKey(), s.shard());
            if (before != null && !before.equals(s.shard())) {
                long now = System.nanoTime();
                Long last = splitWarnedAt.get(policy.name());
                if (last == null || now - last >= SPLIT_WARNING_EVERY.toNanos()) {
                    splitWarnedAt.put(policy.name(), now);
                    LOG.warning(() -> "Policy '" + policy.name() + "': shardBy gave partition '" + s.partitionKey()
                            + "' the shards '" + before + "' and '" + s.shard() + "' in one submission. A partition is "
                            + "admitted by the shard of its newest job: make shardBy a function of what partitionBy reads");
                }
                return;
            }
        }
    }

    /** Who demotion rules count the job for: the policy's tenant function, else the partition key; null for nobody. */
    private static String tenant(Policy policy, String jobName, Map<String, Object> context, String partitionKey) {
        if (policy.tenantFunction() == null) {
            return partitionKey;
        }
        Object tenant = call(policy, jobName, "the tenant function", () -> policy.tenantFunction().apply(context));
        return tenant == null || tenant.toString().isBlank() ? null : tenant.toString();
    }

    /** One of the policy's functions applied to a job; its failure refuses the submission, naming both. */
    private static <T> T call(Policy policy, String jobName, String function, java.util.function.Supplier<T> applied) {
        try {
            return applied.get();
        } catch (RuntimeException e) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': " + function + " failed for job '"
                    + jobName + "': " + e, e);
        }
    }
}
