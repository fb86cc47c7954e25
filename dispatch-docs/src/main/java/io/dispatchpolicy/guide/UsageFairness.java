// tag::all[]
package io.dispatchpolicy.guide;

import io.dispatchpolicy.spi.FairnessMeasure;
import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;

@ApplicationScoped
public class UsageFairness {

    @Produces
    Policy exports() {
        return Policy.named("exports").governs("export")
                .partitionBy(ctx -> ctx.get("tenant"))
                .capacity(20)
                .fairness(Duration.ofMinutes(1))           // the half-life
                .fairnessBy(FairnessMeasure.USAGE)         // slot-seconds run, not jobs admitted
                .build();
    }
}
// end::all[]
