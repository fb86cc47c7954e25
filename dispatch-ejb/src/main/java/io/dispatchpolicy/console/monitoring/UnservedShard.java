package io.dispatchpolicy.console.monitoring;

/**
 * A shard with waiting partitions that no live node admits (ADR 0014): its jobs wait until some node's
 * {@code dispatch.shards} names it.
 *
 * @param shard      the shard
 * @param partitions its partitions with jobs waiting
 * @param pending    the jobs waiting in them
 */
public record UnservedShard(String shard, long partitions, long pending) implements java.io.Serializable {
}
