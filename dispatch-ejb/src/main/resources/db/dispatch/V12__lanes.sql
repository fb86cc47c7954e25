-- Lanes (ADR 0011). A policy with lanes keeps each partition key's waiting jobs in one row per lane
-- (policy, key, lane): the claim, the waiting set, priority and fairness work per row as before. The
-- gates stay per key: they live on the key's row outside any lane (lane ''), which an admission from
-- a lane row locks first. A policy without lanes has only lane '' rows: nothing changes for it.
ALTER TABLE dispatch.partitions ADD COLUMN lane text NOT NULL DEFAULT '';
ALTER TABLE dispatch.partitions DROP CONSTRAINT partitions_policy_key;
-- (policy, key) first: the rows of one key, gate row first, are one range of this index.
ALTER TABLE dispatch.partitions ADD CONSTRAINT partitions_policy_key UNIQUE (policy_name, partition_key, lane);

-- The tick's claim takes rows outside lanes; each lane of a policy is claimed on its own index, so a
-- lane with few partitions is never crowded out of a claim by a lane with many.
DROP INDEX dispatch.partitions_claim_idx;
CREATE INDEX partitions_claim_idx ON dispatch.partitions (top_priority DESC, last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0 AND NOT paused AND lane = '';
CREATE INDEX partitions_lane_claim_idx ON dispatch.partitions (policy_name, lane, top_priority DESC, last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0 AND NOT paused AND lane <> '';

-- An in-flight job counts against its key's gates (gate_id: the key's gate row) and its lane's share.
ALTER TABLE dispatch.inflight_jobs ADD COLUMN gate_id bigint, ADD COLUMN lane text NOT NULL DEFAULT '';
UPDATE dispatch.inflight_jobs SET gate_id = partition_id;
CREATE INDEX inflight_jobs_gate_idx ON dispatch.inflight_jobs (gate_id);
