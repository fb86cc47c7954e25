package io.dispatchpolicy.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.inject.spi.CDI;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * Meters in the registry WildFly's micrometer subsystem gives a deployment. Only the registry's own
 * shorthand methods are used: in WildFly 39 a meter built with {@code Counter.builder(..).register(..)}
 * lands in a registry that is never exported (WFLY-21339), and no distribution settings pass through,
 * hence {@link EngineMetrics}'s own histogram buckets.
 *
 * <p>Each meter is looked up once and kept: WildFly's application registry finds a meter by walking
 * every meter it holds ({@code Search.findOne}) on each {@code counter(..)} or {@code timer(..)} call, and
 * with a count or two per job that walk was a tenth of the server's CPU samples in the benchmark (run 28).
 * The names and tags are few (policies, statuses, denial reasons), so what is kept stays small.
 */
final class MicrometerMeters implements Meters {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<List<String>, Counter> counters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<List<String>, Timer> timers = new ConcurrentHashMap<>();

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
        counters.computeIfAbsent(key(name, tags), k -> registry.counter(name, tags)).increment(amount);
    }

    @Override
    public void time(String name, long nanos, String... tags) {
        timers.computeIfAbsent(key(name, tags), k -> registry.timer(name, tags)).record(nanos, TimeUnit.NANOSECONDS);
    }

    private static List<String> key(String name, String... tags) {
        String[] key = new String[tags.length + 1];
        key[0] = name;
        System.arraycopy(tags, 0, key, 1, tags.length);
        return List.of(key);
    }

    @Override
    public void gauge(String name, DoubleSupplier value, String... tags) {
        // EngineMetrics registers each gauge once per deployment, so one already there of this name and tags is an
        // earlier deployment's (a redeploy; its object gone, it reads NaN) — and the registry would hand back that one
        // instead of registering ours: take it out first
        for (io.micrometer.core.instrument.Gauge stale : registry.find(name).tags(tags).gauges()) {
            registry.remove(stale);
        }
        // the registry holds the supplier weakly: EngineMetrics keeps it
        registry.gauge(name, Tags.of(tags), value, DoubleSupplier::getAsDouble);
    }
}
