-- Work that follows work (issue 39, ADR 0051). A follower waits for one submission (its predecessor) to end for good
-- and is decided in the transaction that records that end: staged (its own submission id kept here) when the end
-- matches on_end, else skipped. Kind 'job' is a continuation: job, parameters, submit options and its own
-- continuations (nested, staged as followers of the job when it is staged).
CREATE TABLE dispatch.followers (
    id                bigserial    PRIMARY KEY,
    after_submission  bigint       NOT NULL,
    kind              text         NOT NULL DEFAULT 'job' CHECK (kind IN ('job')),
    on_end            text         NOT NULL CHECK (on_end IN ('success', 'failure', 'any')),
    job_name          text         NOT NULL,
    job_parameters    jsonb        NOT NULL,
    -- the continuation's submit options and its own continuations (ContinuationCodec)
    spec              jsonb        NOT NULL,
    submitted_by      text,
    created_at        timestamptz  NOT NULL DEFAULT clock_timestamp(),
    state             text         NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'staged', 'skipped', 'refused')),
    decided_at        timestamptz,
    -- staged: its own submission (a duplicate's holder when a uniqueness key absorbed it)
    submission_id     bigint,
    -- the predecessor's end it was decided on (COMPLETED, FAILED, STOPPED), or why it was refused
    detail            text
);
-- The end of a job probes this index (inside the statement that frees its slot): a job nobody follows costs one lookup.
CREATE INDEX followers_after_idx ON dispatch.followers (after_submission);
-- A job's page says what it continues; retention sweeps the decided ones oldest first.
CREATE INDEX followers_submission_idx ON dispatch.followers (submission_id) WHERE submission_id IS NOT NULL;
CREATE INDEX followers_decided_idx ON dispatch.followers (decided_at) WHERE decided_at IS NOT NULL;
