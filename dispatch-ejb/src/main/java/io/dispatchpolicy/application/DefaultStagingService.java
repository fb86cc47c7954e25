package io.dispatchpolicy.application;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobXmlName;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.StagingRepository;
import io.dispatchpolicy.spi.Policy;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The submission boundary. Everything that could make a job fail later for a reason the caller
 * controls is checked here, before anything is written: the job XML exists, the parameters fit
 * JBeret's repository, the policy's context function succeeds and yields a partition key.
 */
@Stateless
public class DefaultStagingService implements StagingService {

    /** Longest partition key accepted: keys are shown, indexed and compared on every enqueue. */
    public static final int MAX_PARTITION_KEY_LENGTH = 256;

    @Inject
    JobRuntime runtime;

    @Inject
    BatchPermissionCheck permission;

    @Inject
    StagingRepository staging;

    @Override
    public long[] stage(Policy policy, String jobXmlName, List<Properties> parameters) {
        String jobName = JobXmlName.require(jobXmlName);
        if (!runtime.knowsJob(jobName)) {
            throw new SubmissionRejectedException("Unknown job XML name '" + jobName
                    + "': no META-INF/batch-jobs/" + jobName + ".xml is visible to the dispatch engine");
        }
        if (parameters == null || parameters.isEmpty()) {
            return new long[0];
        }
        List<Submission> submissions = new ArrayList<>(parameters.size());
        for (Properties p : parameters) {
            submissions.add(assign(policy, jobName, JobParameters.of(p)));
        }
        String user = permission.authorizeStart();
        return staging.stage(policy.name(), jobName, user, submissions);
    }

    private static Submission assign(Policy policy, String jobName, JobParameters parameters) {
        Map<String, Object> context;
        Object key;
        try {
            Map<String, ?> raw = policy.contextFunction().apply(parameters.toProperties());
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
        return new Submission(jobName, parameters, partitionKey, JsonCodec.write(context));
    }
}
