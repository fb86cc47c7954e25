package io.dispatchpolicy.spi;

import java.util.Map;
import java.util.Properties;

/**
 * Turns a job's parameters into the small context a policy partitions and gates on. Values must be
 * strings, numbers, booleans or null: the context is stored as JSON on the partition.
 */
@FunctionalInterface
public interface ContextFunction {
    Map<String, ?> apply(Properties jobParameters);
}
