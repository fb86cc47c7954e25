-- Sharding (ADR 0014). Every row of a partition key carries the shard its policy's shardBy gave the key's
-- newest context ('' for a policy without shardBy). A node with dispatch.shards claims each of its shards,
-- and the unsharded rows, on its own walk of these indexes (shard first, then the claim order), so a shard
-- with few partitions is never crowded out, and a shard no node serves costs the others nothing.
ALTER TABLE dispatch.partitions ADD COLUMN shard text NOT NULL DEFAULT '';
CREATE INDEX partitions_shard_claim_idx ON dispatch.partitions (shard, top_priority DESC, last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0 AND NOT paused AND lane = '';
CREATE INDEX partitions_shard_lane_claim_idx
    ON dispatch.partitions (policy_name, lane, shard, top_priority DESC, last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0 AND NOT paused AND lane <> '';

-- Which node admitted a job (its boot, dispatch.nodes.id): shows where a sharded policy's work went.
ALTER TABLE dispatch.admissions ADD COLUMN node_id uuid;

-- The shards a live node admits, as it last said in its heartbeat; NULL: every shard.
ALTER TABLE dispatch.nodes ADD COLUMN shards text[];
