package io.dispatchpolicy.operator;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.completion.JobStops;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.batch.operations.JobExecutionNotRunningException;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.batch.runtime.StepExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The {@link Governed} {@code JobOperator}: JBeret's operator (the caller's deployment's, as
 * {@code BatchRuntime.getJobOperator()} gives it) with {@code start} under {@link PolicyInterceptor},
 * and submission ids understood wherever an execution id is expected: a staged job reads as a
 * STARTING execution under its submission id, an admitted one as its JBeret execution.
 */
@Governed
@ApplicationScoped
public class GovernedJobOperator implements JobOperator {

    @Inject
    DispatchOperator dispatch;

    @Inject
    StagingRepository staging;

    @Inject
    JobStops stops;

    private static JobOperator jberet() {
        return BatchRuntime.getJobOperator();
    }

    @Override
    @PolicyGoverned
    public long start(String jobXMLName, Properties jobParameters) {
        return jberet().start(jobXMLName, jobParameters);
    }

    @Override
    @PolicyGoverned
    public long restart(long executionId, Properties restartParameters) {
        return jberet().restart(admitted(executionId), restartParameters);
    }

    @Override
    public JobExecution getJobExecution(long executionId) {
        if (!DispatchOperator.isSubmissionId(executionId)) {
            return jberet().getJobExecution(executionId);
        }
        SubmissionStatus status = dispatch.status(executionId);
        switch (status.state()) {
            case ADMITTED:
                return jberet().getJobExecution(status.executionId().getAsLong());
            case STAGED:
                return staging.find(executionId).<JobExecution>map(StagedJobExecution::new)
                        // admitted between the two reads
                        .orElseGet(() -> jberet().getJobExecution(admitted(executionId)));
            default:
                throw new NoSuchJobExecutionException("No job execution or submission with id " + executionId);
        }
    }

    @Override
    public Properties getParameters(long executionId) {
        return getJobExecution(executionId).getJobParameters();
    }

    @Override
    public void stop(long executionId) {
        stops.stop(admitted(executionId));
    }

    @Override
    public void abandon(long executionId) {
        jberet().abandon(admitted(executionId));
    }

    @Override
    public JobInstance getJobInstance(long executionId) {
        return jberet().getJobInstance(admitted(executionId));
    }

    @Override
    public List<StepExecution> getStepExecutions(long jobExecutionId) {
        return jberet().getStepExecutions(admitted(jobExecutionId));
    }

    @Override
    public Set<String> getJobNames() {
        return jberet().getJobNames();
    }

    @Override
    public int getJobInstanceCount(String jobName) {
        return jberet().getJobInstanceCount(jobName);
    }

    @Override
    public List<JobInstance> getJobInstances(String jobName, int start, int count) {
        return jberet().getJobInstances(jobName, start, count);
    }

    @Override
    public List<Long> getRunningExecutions(String jobName) {
        return jberet().getRunningExecutions(jobName);
    }

    @Override
    public List<JobExecution> getJobExecutions(JobInstance instance) {
        return jberet().getJobExecutions(instance);
    }

    /** The JBeret execution id for an execution or submission id; a staged job has none yet. */
    private long admitted(long id) {
        if (!DispatchOperator.isSubmissionId(id)) {
            return id;
        }
        SubmissionStatus status = dispatch.status(id);
        switch (status.state()) {
            case ADMITTED:
                return status.executionId().getAsLong();
            case STAGED:
                throw new JobExecutionNotRunningException("Submission " + id + " is still staged: it has no execution yet");
            default:
                throw new NoSuchJobExecutionException("No job execution or submission with id " + id);
        }
    }
}
