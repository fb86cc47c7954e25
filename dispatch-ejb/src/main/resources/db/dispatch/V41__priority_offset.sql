-- Time-offset priority (ADR 0046). Within a priority a partition's jobs go in the order of ordered_at: the
-- instant the job counts as submitted, its staging time moved earlier (or later) by its priority offset, so
-- a job offset by 60 s goes ahead of jobs submitted up to 60 s before it and behind every older one. Stored
-- once at staging and indexed: the take stays the top of the admit index, nothing rewrites rows as time
-- passes. Rows staged before this version are ordered by their staging time, as their ids ordered them.
ALTER TABLE dispatch.staged_jobs ADD COLUMN ordered_at timestamptz;
UPDATE dispatch.staged_jobs SET ordered_at = staged_at;
ALTER TABLE dispatch.staged_jobs ALTER COLUMN ordered_at SET DEFAULT clock_timestamp();
ALTER TABLE dispatch.staged_jobs ALTER COLUMN ordered_at SET NOT NULL;

DROP INDEX dispatch.staged_jobs_admit_idx;
CREATE INDEX staged_jobs_admit_idx ON dispatch.staged_jobs (partition_id, priority DESC, ordered_at, id)
    WHERE parked_at IS NULL AND due_at IS NULL;

-- A retry or restart is staged again under its submission id and keeps its place: the admission record
-- holds the instant it was first ordered at (NULL for admissions before this version: their staging time).
ALTER TABLE dispatch.admissions ADD COLUMN ordered_at timestamptz;
