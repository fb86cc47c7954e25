package io.dispatchpolicy.partition;

import io.dispatchpolicy.domain.model.Overrides;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.domain.gate.ResolvedGate;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/** Operators' overrides (ADR 0025): what is in force when, how they are stored, and how they change a policy. */
class OverridesTest {

    private static final long NOW = 1_000_000L;

    @Test
    void anOverrideCountsUntilItsTimeAndNotAfter() {
        Overrides o = Overrides.NONE
                .with("concurrency", "max", new Overrides.Entry(5, NOW + 1000, "ann", NOW), NOW)
                .with("throttle", "rate", new Overrides.Entry(2.5, null, "bob", NOW), NOW);
        assertThat(o.inForce(NOW + 999)).isEqualTo(Map.of("concurrency", Map.of("max", 5.0), "throttle", Map.of("rate", 2.5)));
        assertThat(o.inForce(NOW + 1000)).isEqualTo(Map.of("throttle", Map.of("rate", 2.5)));
        assertThat(o.entry("concurrency", "max", NOW + 1000)).isEmpty();
        // a later change drops what has ended; clearing the last one leaves none at all
        Overrides later = o.with("throttle", "per", new Overrides.Entry(30, null, "bob", NOW + 2000), NOW + 2000);
        assertThat(later.byScope()).containsOnlyKeys("throttle");
        assertThat(later.without("throttle", "rate", NOW + 2000).without("throttle", "per", NOW + 2000).isEmpty()).isTrue();
    }

    @Test
    void theColumnKeepsEveryFieldAndNoneIsNull() {
        Overrides o = Overrides.NONE
                .with("a", "weight", new Overrides.Entry(4, null, "ann", NOW), NOW)
                .with("concurrency", "max", new Overrides.Entry(0.5, NOW + 60_000, null, NOW), NOW);
        assertThat(OverrideCodec.read(OverrideCodec.write(o))).isEqualTo(o);
        assertThat(OverrideCodec.write(Overrides.NONE)).isNull();
        assertThat(OverrideCodec.read(null)).isSameAs(Overrides.NONE);
    }

    private static EffectivePolicy effective(Policy policy, Map<String, Map<String, Double>> standaloneXml) {
        return new EffectivePolicy(policy, 100, OptionalInt.empty(), OptionalInt.of(10), policy.lanes(), null, List.of(),
                Optional.empty(), RetryStrategy.RESTAGE, Retries.none(), standaloneXml);
    }

    @Test
    void aPartitionsOverrideWinsOverStandaloneXmlWhichWinsOverTheDeclaration() {
        Policy policy = Policy.named("o").governs("o").partitionBy(c -> c.get("t"))
                .gate(Gate.throttle(10, Duration.ofMinutes(1))).gate(Gate.concurrency(3)).build();
        EffectivePolicy base = effective(policy, Map.of("concurrency", Map.of("max", 4.0)));
        assertThat(base.withGateOverrides(Map.of())).isSameAs(base);
        List<ResolvedGate> gates = base.withGateOverrides(Map.of("concurrency", Map.of("max", 7.0))).resolveGates(Map.of());
        assertThat(gates).containsExactly(new ResolvedGate.Throttle("throttle", 10, 60),
                new ResolvedGate.Concurrency("concurrency", 7, Duration.ofSeconds(1)));
        assertThat(base.resolveGates(Map.of()).get(1)).isEqualTo(new ResolvedGate.Concurrency("concurrency", 4, Duration.ofSeconds(1)));
    }

    @Test
    void aLaneOverrideChangesOnlyTheValuesItNames() {
        Policy policy = Policy.named("l").governs("l").partitionBy(c -> c.get("t")).capacity(10)
                .lane("a", 1, 3).lane("b", 9).build();
        EffectivePolicy lanes = effective(policy, Map.of()).withLaneOverrides(Map.of("a", Map.of("min", 6.0), "gone", Map.of("weight", 2.0)));
        assertThat(lanes.lanes()).containsExactly(new Lane("a", 1, 6), new Lane("b", 9, 0));
    }
}
