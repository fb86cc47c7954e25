package io.dispatchpolicy.interfaces.batch;

import io.dispatchpolicy.domain.model.StagedJob;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;

import java.util.Date;
import java.util.Properties;

/**
 * What {@code getJobExecution(submissionId)} answers while the job is staged: Jakarta Batch's
 * STARTING ("submitted, not yet started"), under the submission id, with no start or end time.
 */
final class StagedJobExecution implements JobExecution {

    private final StagedJob job;

    StagedJobExecution(StagedJob job) {
        this.job = job;
    }

    @Override
    public long getExecutionId() {
        return job.submissionId();
    }

    @Override
    public String getJobName() {
        return job.jobName();
    }

    @Override
    public BatchStatus getBatchStatus() {
        return BatchStatus.STARTING;
    }

    @Override
    public Date getStartTime() {
        return null;
    }

    @Override
    public Date getEndTime() {
        return null;
    }

    @Override
    public String getExitStatus() {
        return null;
    }

    @Override
    public Date getCreateTime() {
        return Date.from(job.stagedAt());
    }

    @Override
    public Date getLastUpdatedTime() {
        return Date.from(job.stagedAt());
    }

    @Override
    public Properties getJobParameters() {
        return job.parameters().toProperties();
    }
}
