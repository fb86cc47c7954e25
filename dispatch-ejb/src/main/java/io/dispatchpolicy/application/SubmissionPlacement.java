package io.dispatchpolicy.application;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

/**
 * Where a job goes, as its policy decides: the checks a submission passes before anything is written
 * (the job XML exists, the context function succeeds and yields a partition key, the lane exists), and
 * the submission they make. Shared by staging and by schedules' occurrences, and a plain CDI bean so
 * that the tick's admission (which chains occurrences) never calls an EJB that may already be stopping.
 */
@ApplicationScoped
public class SubmissionPlacement {

    /** Longest partition key accepted: keys are shown, indexed and compared on every enqueue. */
    public static final int MAX_PARTITION_KEY_LENGTH = 256;

    @Inject
    JobRuntime runtime;

    @Inject
    HeldPolicies policies;

    @Inject
    PolicyRegistry registry;

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
                null, null, placed);
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
     */
    public Submission assign(Policy policy, String jobName, JobParameters effective, JobParameters stored,
                             OptionalInt priority, Long delayMillis, Long atMillis, String lane) {
        Map<String, Object> context;
        Object key;
        try {
            Map<String, ?> raw = policy.contextFunction().apply(effective.toProperties());
            context = raw == null ? Map.of() : new LinkedHashMap<>(raw);
        } catch (RuntimeException e) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': the context function failed for job '"
                    + jobName + "': " + e, e);
        }
        try {
            key = policy.partitionFunction().apply(context);
        } catch (RuntimeException e) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': partitionBy failed for job '"
                    + jobName + "': " + e, e);
        }
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
        int effectivePriority;
        try {
            effectivePriority = priority.isPresent() ? priority.getAsInt() : policy.priorityFunction().apply(context);
        } catch (RuntimeException e) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': the priority function failed for job '"
                    + jobName + "': " + e, e);
        }
        return new Submission(jobName, stored, partitionKey, lane, JsonCodec.write(context), effectivePriority, delayMillis,
                atMillis, tenant(policy, jobName, context, partitionKey));
    }

    /** Who demotion rules count the job for: the policy's tenant function, else the partition key; null for nobody. */
    private static String tenant(Policy policy, String jobName, Map<String, Object> context, String partitionKey) {
        if (policy.tenantFunction() == null) {
            return partitionKey;
        }
        Object tenant;
        try {
            tenant = policy.tenantFunction().apply(context);
        } catch (RuntimeException e) {
            throw new SubmissionRejectedException("Policy '" + policy.name() + "': the tenant function failed for job '"
                    + jobName + "': " + e, e);
        }
        return tenant == null || tenant.toString().isBlank() ? null : tenant.toString();
    }
}
