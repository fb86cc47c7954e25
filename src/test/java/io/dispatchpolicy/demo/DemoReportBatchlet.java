package io.dispatchpolicy.demo;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Pretends to build a tenant's report. It does not end early when stopped: it ends within half a
 * second anyway, and WildFly stops a running job once per module of the EAR that sees its job XML;
 * a job that ended at the first request would make a later one fail, with an ERROR in the log.
 */
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
