-- Delayed submission (ADR 0009). A job submitted with a delay or a time is "scheduled": staged with
-- due_at in the future, outside its partition's waiting set (pending_count, the admit index) until a
-- tick promotes it, so a partition whose jobs all lie in the future costs the claim nothing.
ALTER TABLE dispatch.staged_jobs ADD COLUMN due_at timestamptz;

DROP INDEX dispatch.staged_jobs_admit_idx;
CREATE INDEX staged_jobs_admit_idx ON dispatch.staged_jobs (partition_id, priority DESC, id)
    WHERE parked_at IS NULL AND due_at IS NULL;
-- The promotion reads the earliest due jobs across all partitions: the top of this index.
CREATE INDEX staged_jobs_due_idx ON dispatch.staged_jobs (due_at) WHERE due_at IS NOT NULL;
-- The partition page's "next due at".
CREATE INDEX staged_jobs_partition_due_idx ON dispatch.staged_jobs (partition_id, due_at) WHERE due_at IS NOT NULL;

ALTER TABLE dispatch.partitions ADD COLUMN scheduled_count integer NOT NULL DEFAULT 0;
