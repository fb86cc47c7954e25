package io.dispatchpolicy.domain.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Values an operator set at runtime over a policy's own (ADR 0025), by scope — a gate id (a partition key's
 * gate parameters) or a lane name (a policy's lane weight and minimum) — then by parameter. Each may end at a
 * time: it is in force until then, and simply stops counting afterwards, wherever it is read (no job has to
 * run for it to expire). Immutable; {@link #NONE} is the common case and costs nothing.
 */
public record Overrides(Map<String, Map<String, Entry>> byScope) {

    public static final Overrides NONE = new Overrides(Map.of());

    /**
     * @param value       the value in force
     * @param untilMillis when it ends (epoch ms), or null: until cleared
     * @param by          who set it
     * @param atMillis    when
     */
    public record Entry(double value, Long untilMillis, String by, long atMillis) {

        public boolean inForce(long nowMillis) {
            return untilMillis == null || untilMillis > nowMillis;
        }
    }

    public Overrides {
        byScope = Collections.unmodifiableMap(byScope);
    }

    public boolean isEmpty() {
        return byScope.isEmpty();
    }

    /** The values in force at {@code nowMillis}, by scope and parameter; empty when none is. */
    public Map<String, Map<String, Double>> inForce(long nowMillis) {
        if (byScope.isEmpty()) {
            return Map.of(); // the admission's common case: nothing allocated
        }
        Map<String, Map<String, Double>> values = new LinkedHashMap<>();
        byScope.forEach((scope, params) -> params.forEach((param, entry) -> {
            if (entry.inForce(nowMillis)) {
                values.computeIfAbsent(scope, s -> new LinkedHashMap<>()).put(param, entry.value());
            }
        }));
        return values;
    }

    /** These overrides with {@code entry} set (and those no longer in force dropped). */
    public Overrides with(String scope, String param, Entry entry, long nowMillis) {
        Map<String, Map<String, Entry>> next = pruned(nowMillis);
        next.computeIfAbsent(scope, s -> new LinkedHashMap<>()).put(param, entry);
        return new Overrides(next);
    }

    /** These overrides without {@code scope}'s {@code param} (and without those no longer in force). */
    public Overrides without(String scope, String param, long nowMillis) {
        Map<String, Map<String, Entry>> next = pruned(nowMillis);
        Map<String, Entry> params = next.get(scope);
        if (params != null) {
            params.remove(param);
            if (params.isEmpty()) {
                next.remove(scope);
            }
        }
        return new Overrides(next);
    }

    /** The entry of {@code scope}'s {@code param} when it is in force. */
    public java.util.Optional<Entry> entry(String scope, String param, long nowMillis) {
        Entry e = byScope.getOrDefault(scope, Map.of()).get(param);
        return e != null && e.inForce(nowMillis) ? java.util.Optional.of(e) : java.util.Optional.empty();
    }

    private Map<String, Map<String, Entry>> pruned(long nowMillis) {
        Map<String, Map<String, Entry>> next = new LinkedHashMap<>();
        byScope.forEach((scope, params) -> params.forEach((param, entry) -> {
            if (entry.inForce(nowMillis)) {
                next.computeIfAbsent(scope, s -> new LinkedHashMap<>()).put(param, entry);
            }
        }));
        return next;
    }
}
