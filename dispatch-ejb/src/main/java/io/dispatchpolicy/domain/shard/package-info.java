/**
 * Shards (ADR 0014): what a shard name may be ({@link io.dispatchpolicy.domain.shard.ShardNames}) and which
 * shards a node's tick claims, with the partition batch split between them
 * ({@link io.dispatchpolicy.domain.shard.ShardScope}). No database or container types.
 */
package io.dispatchpolicy.domain.shard;
