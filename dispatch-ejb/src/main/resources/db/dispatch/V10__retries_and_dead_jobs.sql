-- Automatic retries and dead jobs (ADR 0009). A governed execution that ends FAILED is restarted
-- through its policy, staged with a "not before" time (due_at), until its policy's retries are spent;
-- then it is dead: one row here, kept with its last error until an operator retries or discards it,
-- or the documented retention (dispatch.dead-retention) expires.

-- Which execution attempt of its submission a job is (1 = the submitted one; a retry adds one; a
-- restart after a crash or a database outage keeps it: that attempt never ended on its own).
ALTER TABLE dispatch.staged_jobs ADD COLUMN attempt integer NOT NULL DEFAULT 1;
ALTER TABLE dispatch.inflight_jobs ADD COLUMN attempt integer NOT NULL DEFAULT 1;
ALTER TABLE dispatch.admissions ADD COLUMN attempt integer NOT NULL DEFAULT 1;
-- A restart whose policy's retry-strategy is "bypass": when due it goes straight to JBeret, past the gates.
ALTER TABLE dispatch.staged_jobs ADD COLUMN bypass boolean NOT NULL DEFAULT false;
-- Each tick iteration reads the due ones off this index: it holds only bypassing restarts, so a backlog
-- of ordinary due jobs waiting for promotion costs that read nothing.
CREATE INDEX staged_jobs_bypass_idx ON dispatch.staged_jobs (due_at) WHERE bypass;

CREATE TABLE dispatch.dead_jobs (
    submission_id  bigint       PRIMARY KEY,
    partition_id   bigint       NOT NULL REFERENCES dispatch.partitions (id),
    job_name       text         NOT NULL,
    execution_id   bigint       NOT NULL,   -- the last execution, FAILED: a retry restarts it
    attempts       integer      NOT NULL,
    priority       integer      NOT NULL,
    submitted_by   text,
    exit_status    text,
    error          text,
    died_at        timestamptz  NOT NULL DEFAULT clock_timestamp()
);
-- The Dead view lists newest first, the retention sweep reads the oldest; both off this index.
CREATE INDEX dead_jobs_died_idx ON dispatch.dead_jobs (died_at);
-- A partition's dead jobs (its page; the idle-partition sweep keeps a partition that has any, since a
-- retry goes back into it).
CREATE INDEX dead_jobs_partition_idx ON dispatch.dead_jobs (partition_id, died_at);

-- A manual restart of an execution whose retry is already staged is refused: found off this index.
CREATE INDEX staged_jobs_restart_of_idx ON dispatch.staged_jobs (restart_of) WHERE restart_of IS NOT NULL;
CREATE INDEX dead_jobs_execution_idx ON dispatch.dead_jobs (execution_id);
