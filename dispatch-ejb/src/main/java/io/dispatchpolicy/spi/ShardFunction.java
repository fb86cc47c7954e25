package io.dispatchpolicy.spi;

import java.util.Map;

/**
 * Names the shard a job's partition belongs to, from its context: a node with {@code dispatch.shards}
 * admits only the partitions of the shards it names (ADR 0014). Must give the same shard for every job of
 * one partition — a function of what {@link PartitionFunction} reads, or coarser — and not null, blank,
 * or a name with a comma or whitespace (the setting lists shards separated by commas).
 */
@FunctionalInterface
public interface ShardFunction {
    Object apply(Map<String, Object> context);
}
