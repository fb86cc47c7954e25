// tag::batchlet[]
package io.dispatchpolicy.guide;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The daily report's one step. {@code @Dependent} makes it a bean under annotated discovery (a beans.xml without
 * {@code bean-discovery-mode="all"}, or none): {@code @Named} alone does not, and JBeret would answer JBERET000600,
 * "failed to create artifact", at the job's start.
 */
@Dependent
@Named("dailyReport")
public class DailyReportBatchlet extends AbstractBatchlet {

    @Inject
    @BatchProperty
    String tenant;

    @Override
    public String process() {
        // … build the tenant's report …
        return "REPORTED " + tenant;
    }
}
// end::batchlet[]
