package io.dispatchpolicy.spi;

import java.util.Map;

/**
 * A numeric gate parameter: a constant, or a function of the partition's context (evaluated against
 * the context stored with the partition, which every enqueue refreshes).
 */
@FunctionalInterface
public interface Param {

    double of(Map<String, Object> context);

    static Param constant(double value) {
        return new Constant(value);
    }

    /** A constant parameter; its value is known at declaration, so it can be checked there. */
    record Constant(double value) implements Param {
        @Override
        public double of(Map<String, Object> context) {
            return value;
        }
    }
}
