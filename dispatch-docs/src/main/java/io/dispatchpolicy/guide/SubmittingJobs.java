// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchStatus;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Properties;

@Stateless
public class SubmittingJobs {

    @Inject
    @Governed
    JobOperator jobs;                                  // the standard interface

    @Inject
    DispatchOperator dispatch;                         // bulk submission and status

    void submit(Properties props, List<Properties> listOfProps) {
        long id = jobs.start("tenant-report", props);                   // staged: a submission id (>= 10^12)
        BatchStatus now = jobs.getJobExecution(id).getBatchStatus();    // STARTING while staged, then JBeret's execution
        SubmissionStatus status = dispatch.status(id);                  // STAGED | ADMITTED (with execution id) | DEAD | EXPIRED | DISCARDED | UNKNOWN
        long[] ids = dispatch.submitAll("tenant-report", listOfProps);  // all or nothing
        long urgent = dispatch.submit("tenant-report", props, SubmitOption.priority(10)); // options: see Priority
    }
}
// end::all[]
