package io.dispatchpolicy.operator;

import io.dispatchpolicy.domain.model.StagedJob;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;

import java.util.Date;
import java.util.Properties;

/**
 * What {@code getJobExecution(submissionId)} answers while the job is staged: Jakarta Batch's
 * STARTING ("submitted, not yet started"), under the submission id, with no start or end time. A job
 * submitted for later says when it is due in its exit status ({@code DUE 2026-11-23T09:00:00Z}), the
 * one free-text field Jakarta Batch has before a job ends.
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
        return job.dueAt() == null ? null : "DUE " + job.dueAt();
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
