package io.dispatchpolicy.observe;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jakarta.enterprise.inject.spi.CDI;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * Meters in the registry WildFly's micrometer subsystem gives a deployment. Only the registry's own
 * shorthand methods are used: in WildFly 39 a meter built with {@code Counter.builder(..).register(..)}
 * lands in a registry that is never exported (WFLY-21339), and no distribution settings pass through,
 * hence {@link EngineMetrics}'s own histogram buckets.
 */
final class MicrometerMeters implements Meters {

    private final MeterRegistry registry;

    private MicrometerMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The deployment's registry, when the server has the micrometer subsystem. */
    static Optional<Meters> ofDeployment() {
        var candidates = CDI.current().select(MeterRegistry.class);
        return candidates.isResolvable() ? Optional.of(new MicrometerMeters(candidates.get())) : Optional.empty();
    }

    @Override
    public void count(String name, double amount, String... tags) {
        registry.counter(name, tags).increment(amount);
    }

    @Override
    public void time(String name, long nanos, String... tags) {
        registry.timer(name, tags).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void gauge(String name, DoubleSupplier value, String... tags) {
        // the registry holds the supplier weakly: EngineMetrics keeps it
        registry.gauge(name, Tags.of(tags), value, DoubleSupplier::getAsDouble);
    }
}
