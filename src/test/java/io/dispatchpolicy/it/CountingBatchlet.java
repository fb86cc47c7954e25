package io.dispatchpolicy.it;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Counts its runs per execution, so a test can tell a job ran exactly once. */
@Dependent
@Named("countingBatchlet")
public class CountingBatchlet extends AbstractBatchlet {

    @Inject
    JobContext job;

    @Override
    public String process() {
        Runs.record(job.getExecutionId());
        return "COMPLETED";
    }
}
