// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Properties;

@ApplicationScoped
public class CapacityAndLanes {

    @Inject
    DispatchOperator dispatch;

    // tag::capacity[]
    @Produces
    Policy exports() {
        return Policy.named("exports")
                .governs("export")
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(5))      // no tenant runs more than 5 …
                .capacity(20)                   // … and the exports of all tenants together no more than 20
                .build();
    }
    // end::capacity[]

    // tag::lanes[]
    @Produces
    Policy reports() {
        return Policy.named("reports")
                .governs("report")
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(5))                   // per tenant, across all lanes
                .capacity(20)
                .lane("critical", 6, 4)                      // weight 6, 4 slots guaranteed while it has work
                .lane("default", 3)
                .lane("bulk", 1)
                .defaultLane("default")                      // jobs that name no lane (default: the first declared)
                .build();
    }

    long[] submitBulk(List<Properties> jobs) {
        return dispatch.submitAll("report", jobs, SubmitOption.lane("bulk"));
    }
    // end::lanes[]

    // tag::limits[]
    @Produces
    Policy imports() {
        return Policy.named("imports")
                .governs("import")
                .partitionBy(ctx -> ctx.get("tenant"))
                .capacity(20)
                .lane(new Lane("interactive", 6, 4).lendingLimit(1)) // 3 of its 4 stay free for it while idle
                .lane(new Lane("bulk", 1, 0).borrowingLimit(4))      // its share (20 * 1/7 = 2) + 4 at most: 6
                .build();
    }
    // end::limits[]
}
// end::all[]
