-- Submission controls (issue 36, ADR 0036): uniqueness and debounce keys, deadlines, and the staged jobs a
-- control discarded (expired, dropped by a backlog cap, replaced by a newer one).

-- A key names the submission that holds it. The primary key is what decides between concurrent submitters
-- on any node: the first INSERT wins, the others find the row, lock it, and only then look (with a snapshot
-- taken after the lock) whether its holder still holds it. A key whose holder let it go is taken over in
-- place by the next submission, so a row per key lives at most as long as its key is used.
CREATE TABLE dispatch.submission_keys (
    policy_name       text         NOT NULL,
    kind              text         NOT NULL CHECK (kind IN ('unique', 'debounce')),
    key               text         NOT NULL,
    submission_id     bigint       NOT NULL,
    held_since        timestamptz  NOT NULL DEFAULT clock_timestamp(),
    -- unique: the states the key covers (1 staged, 2 running, 4 completed within window_ms of its end)
    covers            smallint     NOT NULL DEFAULT 3,
    window_ms         bigint,
    -- debounce: the holder is due at most max_wait_ms after held_since
    max_wait_ms       bigint,
    -- the submissions the holder absorbed (unique) or that replaced its parameters (debounce)
    absorbed          bigint       NOT NULL DEFAULT 0,
    last_absorbed_at  timestamptz,
    PRIMARY KEY (policy_name, kind, key)
);
-- A job's page shows its key. No other index: each costs every keyed submission an insert (the sweep walks the
-- primary key a slice at a time; the Jobs view finds a key within its policy, off the primary key).
CREATE INDEX submission_keys_submission_idx ON dispatch.submission_keys (submission_id);

-- A deadline: a staged job not admitted by then is EXPIRED. Off a partial index, as due_at is: the tick's
-- expiry costs the number of rows past their deadline, never the number that have one.
ALTER TABLE dispatch.staged_jobs ADD COLUMN expires_at timestamptz;
CREATE INDEX staged_jobs_expires_idx ON dispatch.staged_jobs (expires_at) WHERE expires_at IS NOT NULL;

-- Staged jobs that a control took out without running them, kept for dispatch.dead-retention like dead jobs.
-- The partition is named, not referenced: a partition with only discarded jobs is swept as an idle one.
CREATE TABLE dispatch.discarded_jobs (
    submission_id   bigint       PRIMARY KEY,
    policy_name     text         NOT NULL,
    partition_key   text         NOT NULL,
    lane            text         NOT NULL DEFAULT '',
    job_name        text         NOT NULL,
    job_parameters  jsonb        NOT NULL,
    submitted_by    text,
    staged_at       timestamptz  NOT NULL,
    priority        integer      NOT NULL,
    reason          text         NOT NULL CHECK (reason IN ('expired', 'dropped', 'replaced')),
    detail          text,
    discarded_at    timestamptz  NOT NULL DEFAULT clock_timestamp()
);
-- the sweep reads the oldest; the Jobs view pages a partition's or a job name's newest first (keyset by id)
CREATE INDEX discarded_jobs_at_idx ON dispatch.discarded_jobs (discarded_at);
CREATE INDEX discarded_jobs_partition_idx ON dispatch.discarded_jobs (policy_name, partition_key, submission_id);
CREATE INDEX discarded_jobs_job_idx ON dispatch.discarded_jobs (job_name, submission_id);

