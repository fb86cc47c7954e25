// tag::submit[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.Governed;
import jakarta.batch.operations.JobOperator;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.Properties;

/** Submits reports: staged through the policy, admitted by the tick when its gates allow. */
@Stateless
public class Reports {

    @Inject
    @Governed
    JobOperator jobs;                 // the standard JobOperator, governed: start() stages

    public long submit(String tenant) {
        Properties params = new Properties();
        params.setProperty("tenant", tenant);
        return jobs.start("daily-report", params);      // a submission id; its execution comes at admission
    }
}
// end::submit[]
