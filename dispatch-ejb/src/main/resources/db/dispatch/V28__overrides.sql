-- Operators' runtime overrides (issue 33, ADR 0025). Per partition key, on its gate row (lane ''): gate
-- parameters, {"<gate id>": {"<param>": {"value": n, "until": epoch ms or null, "by": user, "at": epoch ms}}}.
-- Per lane of a policy, on the policy's row: {"<lane>": {"weight"|"min": {...}}}. Null: none. Read where the
-- rows are read anyway (the partition's admission lock, the tick's policy-state query): no extra statement.
ALTER TABLE dispatch.partitions ADD COLUMN overrides jsonb;
ALTER TABLE dispatch.policies ADD COLUMN lane_overrides jsonb;
