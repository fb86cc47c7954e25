package io.dispatchpolicy.adoption.app;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/** Builds a report (briefly). */
@Dependent
@Named("adoptedReportBatchlet")
public class ReportBatchlet extends AbstractBatchlet {

    @Override
    public String process() throws Exception {
        Thread.sleep(100);
        return "COMPLETED";
    }
}
