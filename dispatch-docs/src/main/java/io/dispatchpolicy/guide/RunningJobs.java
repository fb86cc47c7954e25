// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Timeouts;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Properties;

@ApplicationScoped
public class RunningJobs {

    @Inject
    DispatchOperator dispatch;

    // tag::timeouts[]
    @Produces
    Policy exports() {
        return Policy.named("exports").governs("export", "nightly-export").partitionBy(ctx -> ctx.get("tenant"))
                .timeout(Duration.ofMinutes(30))                                   // every job of the policy
                .progressTimeout(Duration.ofMinutes(5))                            // a chunk step: at most 5 min between checkpoints
                .timeouts(Timeouts.none().run(Duration.ofMinutes(30))              // or per job name
                        .run("nightly-export", Duration.ofHours(4)).progress("nightly-export", Duration.ofMinutes(10)))
                .build();
    }
    // end::timeouts[]

    // tag::cost[]
    @Produces
    Policy reindex() {
        return Policy.named("reindex").governs("reindex", "reindex-by-mapper")
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(10))                  // 10 threads per tenant: two reindex jobs of 4 partitions
                .cost("reindex-by-mapper", 6)                // a partition mapper decides at run time: declare its threads
                .build();
    }

    long submitSmall(Properties props) {
        return dispatch.submit("reindex", props, SubmitOption.cost(3)); // this submission's own
    }
    // end::cost[]

    // tag::items[]
    @Produces
    Policy imports() {
        return Policy.named("imports").governs("import").partitionBy(ctx -> ctx.get("tenant"))
                .itemThrottle(20, Duration.ofSeconds(1))                           // 20 items a second per tenant, a bucket of 20
                .build();
    }
    // end::items[]
}
// end::all[]
