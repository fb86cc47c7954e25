// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.GroupStatus;
import io.dispatchpolicy.api.JobGroup;
import io.dispatchpolicy.api.SubmitOption;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Properties;

@Stateless
public class Groups {

    @Inject
    DispatchOperator dispatch;

    long nightlyImport(List<Properties> tenants, Properties prices, Properties summary) {
        long group = dispatch.submitGroup(JobGroup.named("nightly-import")
                .add("import", tenants)                                   // one job per tenant
                .add("prices", prices, SubmitOption.priority(5))          // and a job of another XML
                .onAllSucceeded("send-summary", summary)                  // once, if every member completed
                .onAllEnded("release-lock", new Properties()));           // once, however they ended
        GroupStatus progress = dispatch.groupStatus(group);                // staged, running, completed, failed, dead…
        return group;                                                       // dispatch.cancelGroup(group) discards what is staged
    }
}
// end::all[]
