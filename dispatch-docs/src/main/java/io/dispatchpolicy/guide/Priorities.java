// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Properties;

@ApplicationScoped
public class Priorities {

    @Inject
    DispatchOperator dispatch;

    @Produces
    Policy mail() {
        return Policy.named("mail").governs("send-mail")
                .context(p -> Map.of("tenant", p.getProperty("tenant"), "kind", p.getProperty("kind", "bulk")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .priority(ctx -> "password-reset".equals(ctx.get("kind")) ? 10 : 0)
                .build();
    }

    void submit(Properties props, List<Properties> manyProps) {
        dispatch.submit("send-mail", props, SubmitOption.priority(20));        // this one, even sooner
        dispatch.submitAll("send-mail", manyProps, SubmitOption.priority(-1)); // after everything else
    }
}
// end::all[]
