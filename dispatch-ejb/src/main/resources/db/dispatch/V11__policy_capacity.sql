-- Policy-wide capacity (ADR 0011): at most N of a policy's jobs in flight at once, cluster-wide.

-- The in-flight rows of one policy are counted under the policy's capacity lock: the policy is kept on
-- the row (set at admission), so the count reads this index, never the partitions.
ALTER TABLE dispatch.inflight_jobs ADD COLUMN policy_name text;
UPDATE dispatch.inflight_jobs i SET policy_name = p.policy_name FROM dispatch.partitions p WHERE p.id = i.partition_id;
CREATE INDEX inflight_jobs_policy_idx ON dispatch.inflight_jobs (policy_name);

-- One row per policy with a capacity, locked by each admission of that policy after its partition's
-- row: admissions of one policy from any worker or node pass the count-and-insert one at a time. A
-- table of its own, because only admission locks it: policies (pause) and partitions are locked in
-- other orders by other statements, and a shared row would let those wait on admissions.
CREATE TABLE dispatch.policy_capacity (
    policy_name text PRIMARY KEY
);
