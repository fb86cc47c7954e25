package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the policies page says of each gate: the values in force, and where they come from. */
class GateDescriptionTest {

    private final Policy policy = Policy.named("described").governs("j").partitionBy(ctx -> ctx.get("tenant"))
            .gate(Gate.throttle(2.5, Duration.ofMinutes(1)))
            .gate(Gate.concurrency(ctx -> Double.parseDouble((String) ctx.get("max"))))
            .gate(Gate.adaptiveConcurrency(4, 500))
            .build();

    @Test
    void declaredConstantsAndContextParametersAreNamed() {
        assertThat(EffectivePolicy.describeGates(policy, Map.of())).containsExactly(
                "throttle: rate 2.5, per 60 s",
                "concurrency: max per partition, full-backoff 1 s",
                "adaptive-concurrency: initial-max 4, target-lag-ms 500, min 1");
    }

    @Test
    void standaloneXmlValuesReplaceTheDeclaredOnesAndSaySo() {
        assertThat(EffectivePolicy.describeGates(policy, Map.of(
                "concurrency", Map.of("max", 3.0),
                "adaptive-concurrency", Map.of("max", 12.0)))).containsExactly(
                "throttle: rate 2.5, per 60 s",
                "concurrency: max 3 (standalone.xml), full-backoff 1 s",
                "adaptive-concurrency: initial-max 4, target-lag-ms 500, min 1, max 12 (standalone.xml)");
    }
}
