package io.dispatchpolicy.staging;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck;
import io.dispatchpolicy.infrastructure.jberet.JobInstances;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.staging.demotion.NoisyTenants;
import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import org.jberet.job.model.Job;
import org.jberet.runtime.JobExecutionImpl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

/**
 * The submission boundary. Everything that could make a job fail later for a reason the caller
 * controls is checked here, before anything is written: the job XML exists, the parameters fit
 * JBeret's repository, the policy's context function succeeds and yields a partition key, a restart
 * is of a restartable execution.
 */
@Stateless
public class DefaultStagingService implements StagingService {

    @Inject
    JobRuntime runtime;

    @Inject
    BatchPermissionCheck permission;

    @Inject
    StagingRepository staging;

    @Inject
    DeadJobRepository deadJobs;

    @Inject
    JobInstances instances;

    @Inject
    TickSignal signal;

    @Inject
    HeldPolicies policies;

    @Inject
    PolicyRegistry registry;

    @Inject
    NoisyTenants noisyTenants;

    @Inject
    SubmissionPlacement placement;

    @Inject
    EngineMetrics metrics;


    @Override
    public long[] stage(Policy policy, String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        String jobName = placement.knownJob(jobXmlName);
        if (parameters == null || parameters.isEmpty()) {
            return new long[0];
        }
        OptionalInt priority = SubmitOption.priorityOf(options);
        Due due = due(SubmitOption.dueOf(options));
        Optional<String> named = SubmitOption.laneOf(options);
        OptionalInt cost = SubmitOption.costOf(options);
        // every setting of the policy is read only for a policy with lanes or demotion rules, and then once
        Optional<EffectivePolicy> effective = named.isPresent() || registry.hasLanes(policy) || registry.mayDemote(policy)
                ? policies.effectiveIfDeclared(policy.name()) : Optional.empty();
        String lane = placement.lane(policy, effective, named.orElse(null));
        List<Submission> submissions = new ArrayList<>(parameters.size());
        for (Properties p : parameters) {
            JobParameters validated = JobParameters.of(p);
            submissions.add(placement.assign(policy, jobName, validated, validated, priority, due.delayMillis(), due.atMillis(), lane,
                    cost));
        }
        placement.checkShards(policy, submissions);
        String user = permission.authorize("start");
        long[] ids = staging.stage(policy.name(), jobName, user, noisyTenants.place(policy, effective, submissions, named.isPresent()),
                null, policy.priorityAging().orElse(null),
                JobTimeouts.of(SubmitOption.timeoutOf(options), SubmitOption.progressTimeoutOf(options)));
        signal.workArrivesOnCommit(); // the staged rows are visible to the tick only then
        metrics.stagedOnCommit(policy.name(), ids.length);
        return ids;
    }

    @Override
    public long stageRestart(Policy policy, long executionId, Properties restartParameters) {
        JobExecutionImpl original = (JobExecutionImpl) runtime.environment().getJobRepository().getJobExecution(executionId);
        if (original == null) {
            throw new NoSuchJobExecutionException("No job execution " + executionId);
        }
        BatchStatus status = original.getBatchStatus();
        if (status == BatchStatus.COMPLETED) {
            throw new JobExecutionAlreadyCompleteException("Execution " + executionId + " already completed");
        }
        if (status != BatchStatus.FAILED && status != BatchStatus.STOPPED) {
            throw new JobRestartException("Execution " + executionId + " is " + status + "; only FAILED or STOPPED restart");
        }
        long latest = instances.latestExecution(original.getJobInstance().getInstanceId());
        if (latest != executionId) {
            throw new JobRestartException("Execution " + executionId + " is not the latest of its job instance (" + latest + " is)");
        }
        staging.stagedRestartOf(executionId).ifPresent(staged -> {
            throw new JobRestartException("Execution " + executionId + " is already being restarted: submission "
                    + staged + " is staged for it (an automatic retry, or an earlier restart)");
        });
        JobParameters restart = JobParameters.of(restartParameters);
        // The restart runs with the original parameters overlaid by the restart's: that is what must fit,
        // and what the policy partitions on.
        Properties merged = new Properties();
        Properties previous = original.getJobParameters() == null ? new Properties() : original.getJobParameters();
        previous.stringPropertyNames().stream()
                .filter(k -> !k.equals(JobParameters.SUBMISSION_ID) && !k.equals(Job.JOB_XML_NAME))
                .forEach(k -> merged.setProperty(k, previous.getProperty(k)));
        merged.putAll(restart.asMap());
        String jobName = original.getJobName();
        Submission submission = placement.assign(policy, jobName, JobParameters.of(merged), restart, OptionalInt.empty(),
                null, null, placement.lane(policy, policies.effectiveIfDeclared(policy.name()), null), OptionalInt.empty());
        String caller = permission.authorize("restart");
        // a restart runs as the job's submitter, as its first execution did (ADR 0024); the caller only if unknown
        String user = original.getUser() != null ? original.getUser() : caller;
        long id = staging.stage(policy.name(), jobName, user, List.of(submission), List.of(executionId),
                policy.priorityAging().orElse(null), JobTimeouts.NONE)[0]; // a restart is not counted for its tenant
        deadJobs.revived(executionId); // a dead job restarted by hand is dead no more
        signal.workArrivesOnCommit(); // the staged rows are visible to the tick only then
        metrics.stagedOnCommit(policy.name(), 1);
        return id;
    }





    /**
     * A delay or time as the staging statement takes it. Past times and negative delays mean due at once (the
     * database decides: it promotes them at the next tick); beyond the horizon is a mistake. The horizon
     * is checked on this server's clock, which is close enough for ten years.
     */
    private static Due due(Optional<SubmitOption.Due> due) {
        if (due.isEmpty()) {
            return Due.NOW;
        }
        Duration delay = due.get().delay();
        Instant at = due.get().at();
        Duration ahead = delay != null ? delay : Duration.between(Instant.now(), at);
        if (ahead.compareTo(SubmitOption.HORIZON) > 0) {
            throw new SubmissionRejectedException("A job can be submitted at most " + SubmitOption.HORIZON.toDays()
                    + " days ahead; " + (delay != null ? "delay " + delay : "at " + at) + " is further");
        }
        return delay != null ? new Due(Math.max(0, delay.toMillis()), null) : new Due(null, at.toEpochMilli());
    }



    /** A staged job's delay (ms after staging) or time (epoch ms); both null when it is due at once. */
    private record Due(Long delayMillis, Long atMillis) {
        static final Due NOW = new Due(null, null);
    }
}
