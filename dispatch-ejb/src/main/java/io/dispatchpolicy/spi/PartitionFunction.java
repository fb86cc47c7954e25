package io.dispatchpolicy.spi;

import java.util.Map;

/** Names the partition a job belongs to, from its context. Must not return null or blank. */
@FunctionalInterface
public interface PartitionFunction {
    Object apply(Map<String, Object> context);
}
