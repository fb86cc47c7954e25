-- A job that pauses its own partition (issue 35, deliverable 3; ADR 0033): "this tenant waits until T", with
-- the reason and the execution that said so, on every row of the key (its gate row and its lanes). The claim
-- passes over a paused row and an admission that reached it before leaves it be, on every node, until T.
ALTER TABLE dispatch.partitions ADD COLUMN paused_until timestamptz, ADD COLUMN pause_reason text, ADD COLUMN paused_by bigint;
