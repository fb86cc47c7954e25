// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

@ApplicationScoped
public class PriorityOffsets {

    @Inject
    DispatchOperator dispatch;

    @Produces
    Policy exports() {
        return Policy.named("exports").governs("export")
                .context(p -> Map.of("tenant", p.getProperty("tenant"), "plan", p.getProperty("plan", "basic")))
                .partitionBy(ctx -> ctx.get("tenant"))
                // a premium export goes ahead of the last two minutes' basic ones, never of older work
                .priorityOffset(ctx -> "premium".equals(ctx.get("plan")) ? Duration.ofMinutes(2) : null)
                .build();
    }

    void submit(Properties props) {
        dispatch.submit("export", props, SubmitOption.priorityOffset(Duration.ofSeconds(30))); // this one: 30 s ahead
    }
}
// end::all[]
