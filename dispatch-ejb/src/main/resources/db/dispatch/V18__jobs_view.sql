-- The Jobs view (issue 15): an admitted job keeps what its staging knew (the staged row is deleted at
-- admission), and a partition's jobs are found by their partition. A restart keeps the first values.
ALTER TABLE dispatch.admissions
    ADD COLUMN staged_at    timestamptz,
    ADD COLUMN submitted_by text,
    ADD COLUMN priority     integer,
    ADD COLUMN due_at       timestamptz;

CREATE INDEX admissions_partition_idx ON dispatch.admissions (partition_id, submission_id);
