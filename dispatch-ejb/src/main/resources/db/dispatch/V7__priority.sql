-- Strict priority (ADR 0009). Higher goes first; equal priorities stay FIFO by submission id.

-- Submission ids are the FIFO order within a priority, so they must be handed out in call order
-- across connections: with CACHE 50 each connection drew from its own block, and a job staged
-- later on one connection could get a lower id than an earlier one staged on another.
ALTER SEQUENCE dispatch.submission_id_seq CACHE 1;

ALTER TABLE dispatch.staged_jobs ADD COLUMN priority integer NOT NULL DEFAULT 0;

-- Admission takes a partition's next jobs in (priority DESC, id) order: the top of this index, so
-- O(batch) however deep the partition is.
DROP INDEX dispatch.staged_jobs_admit_idx;
CREATE INDEX staged_jobs_admit_idx ON dispatch.staged_jobs (partition_id, priority DESC, id) WHERE parked_at IS NULL;

-- A partition's highest waiting priority, kept by staging (raised) and by admission, parking and
-- draining (read again off the top of staged_jobs_admit_idx). The claim walks partitions in
-- (top_priority DESC, last_checked_at NULLS FIRST, id) order.
ALTER TABLE dispatch.partitions ADD COLUMN top_priority integer NOT NULL DEFAULT 0;
DROP INDEX dispatch.partitions_claim_idx;
CREATE INDEX partitions_claim_idx ON dispatch.partitions (top_priority DESC, last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0 AND NOT paused;

-- What an admitted job was staged with, so that a restart after a crash keeps its priority.
ALTER TABLE dispatch.inflight_jobs ADD COLUMN priority integer NOT NULL DEFAULT 0;
