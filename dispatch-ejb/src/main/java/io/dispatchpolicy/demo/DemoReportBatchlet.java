package io.dispatchpolicy.demo;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Pretends to build a tenant's report. */
@Dependent
@Named("demoReportBatchlet")
public class DemoReportBatchlet extends AbstractBatchlet {

    @Inject
    @BatchProperty
    String millis;

    @Override
    public String process() throws Exception {
        Thread.sleep(millis == null ? 200 : Long.parseLong(millis));
        return "COMPLETED";
    }
}
