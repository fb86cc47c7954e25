package io.dispatchpolicy.completion;

import io.dispatchpolicy.admission.InflightEnd;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.infrastructure.jberet.FailedExecution;
import io.dispatchpolicy.notify.EventType;
import io.dispatchpolicy.notify.Outbox;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.staging.DeadJob;
import io.dispatchpolicy.staging.DeadJobRepository;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.batch.runtime.JobExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What becomes of a governed job whose execution ended FAILED, decided in the transaction that frees
 * its slot (so a crash leaves either both or neither): retried — a restart of that execution staged
 * through the policy, due after the policy's delay, one attempt more — or dead, kept with its error
 * for an operator. A policy that declares no retries leaves a failed job as JBeret left it.
 */
@ApplicationScoped
public class FailedJobs {

    private static final Logger LOG = Logger.getLogger(FailedJobs.class.getName());

    @Inject
    EngineMetrics metrics;

    @Inject
    StagingRepository staging;

    @Inject
    DeadJobRepository dead;

    @Inject
    PartitionRepository partitions;

    @Inject
    Outbox outbox;

    @Inject
    PolicyRegistry policies;

    @Inject
    HeldPolicies heldPolicies;

    /**
     * @param row      the freed in-flight row of the execution; nothing is done when its policy is no longer declared
     * @param timedOut why the watchdog stopped it (ADR 0030), or null: it failed on its own
     * @return true when the job has ended for good (dead, or its policy retries nothing); false when a retry is staged
     */
    public boolean failed(JobExecution execution, InflightEnd row, String timedOut) {
        return failed(execution, new Run(row.submissionId(), row.partitionId(), row.policyName(), row.priority(), row.attempt()), timedOut);
    }

    /** The submission an ended execution ran for, where, and as which attempt. */
    public record Run(long submissionId, long partitionId, String policyName, int priority, int attempt) {
    }

    /** As {@link #failed(JobExecution, InflightEnd, String)}, for a run whose row recovery released. */
    public boolean failed(JobExecution execution, Run row, String timedOut) {
        Optional<Policy> declared = policies.named(row.policyName());
        if (declared.isEmpty()) {
            return true;
        }
        // a policy held for an invalid setting still retries, by its declaration
        Optional<EffectivePolicy> effective = heldPolicies.effectiveIfDeclared(row.policyName());
        Retries retries = effective.map(EffectivePolicy::retries).orElse(declared.get().retries());
        RetryStrategy strategy = effective.map(EffectivePolicy::retryStrategy).orElse(declared.get().retryStrategy());
        if (!retries.declared()) {
            return true;
        }
        int retry = row.attempt() - 1;
        Optional<Duration> delay;
        FailedExecution failure = FailedExecution.of(execution);
        String error = timedOut == null ? failure.error() : timedOut + "\n" + failure.error();
        try {
            delay = retries.delayBefore(retry, execution);
        } catch (RuntimeException e) {
            // the policy's own function failed: the job is set aside with that reason, not retried blindly
            LOG.log(Level.WARNING, e, () -> "Retry function of policy '" + row.policyName() + "' failed for execution "
                    + execution.getExecutionId() + "; the job is dead");
            delay = Optional.empty();
            error = "retry function failed: " + e + "\nlast failure: " + error;
        }
        String user = failure.user();
        if (delay.isPresent()) {
            // no retry is scheduled further ahead than a submission may be (and the database's timestamps reach)
            Duration wait = delay.get().compareTo(SubmitOption.HORIZON) > 0 ? SubmitOption.HORIZON : delay.get();
            // a policy may send retries to a lane of their own; else a retry waits where its job did
            long partition = retries.lane().flatMap(lane -> partitions.laneRow(row.partitionId(), lane)).orElse(row.partitionId());
            staging.restage(new Restart(row.submissionId(), partition, execution.getJobName(),
                    execution.getExecutionId(), user, row.priority(), row.attempt() + 1, wait,
                    strategy == RetryStrategy.BYPASS));
            metrics.retriedOnCommit(row.policyName());
            return false;
        }
        dead.bury(new DeadJob(row.submissionId(), row.partitionId(), execution.getJobName(),
                execution.getExecutionId(), row.attempt(), row.priority(), user, failure.exitStatus(), error));
        metrics.deadOnCommit(row.policyName());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("submissionId", row.submissionId());
        data.put("executionId", execution.getExecutionId());
        data.put("policy", row.policyName());
        data.put("partitionId", row.partitionId());
        data.put("jobName", execution.getJobName());
        data.put("attempts", row.attempt());
        data.put("exitStatus", failure.exitStatus());
        data.put("error", error == null || error.length() <= 2_000 ? error : error.substring(0, 2_000));
        data.put("submittedBy", user);
        outbox.record(EventType.JOB_DEAD, "job.dead:" + row.submissionId() + ":" + execution.getExecutionId(), data);
        LOG.info(() -> "Job " + execution.getJobName() + " (submission " + row.submissionId() + ") is dead after "
                + row.attempt() + " attempt(s); last execution " + execution.getExecutionId());
        return true;
    }
}
