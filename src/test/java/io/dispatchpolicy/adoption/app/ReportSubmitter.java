package io.dispatchpolicy.adoption.app;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionStatus;
import jakarta.batch.operations.JobOperator;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.Properties;

/** Submits reports through the governed operator, in the caller's transaction. */
@Stateless
public class ReportSubmitter {

    @Inject
    @Governed
    JobOperator jobs;

    @Inject
    DispatchOperator dispatch;

    public long submit(String tenant) {
        Properties params = new Properties();
        params.setProperty("tenant", tenant);
        return jobs.start(ReportPolicies.JOB, params);
    }

    /** Where a submission stands, and its JBeret status once admitted. */
    public String describe(long submissionId) {
        SubmissionStatus status = dispatch.status(submissionId);
        String batchStatus = jobs.getJobExecution(submissionId).getBatchStatus().name();
        return status.state() + " " + batchStatus;
    }
}
