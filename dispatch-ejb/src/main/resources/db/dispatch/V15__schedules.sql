-- Recurring schedules (ADR 0012): an occurrence is a row here plus a staged job due at its run time. The database
-- holds: at most one live future per schedule, only for an enabled schedule at its current version.
CREATE TABLE dispatch.schedules (
    id               bigserial    PRIMARY KEY,
    name             text         NOT NULL UNIQUE,
    source           text         NOT NULL CHECK (source IN ('code', 'config', 'console')),
    job_name         text         NOT NULL,
    job_parameters   jsonb        NOT NULL DEFAULT '{}'::jsonb,
    anchor           timestamptz,
    interval_count   integer      CHECK (interval_count >= 1),
    interval_unit    text         CHECK (interval_unit IN ('seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'years')),
    cron             text,
    zone             text         NOT NULL DEFAULT 'UTC',
    priority         integer,
    lane             text,
    catch_up         boolean      NOT NULL DEFAULT false,
    enabled          boolean      NOT NULL DEFAULT true,
    version          integer      NOT NULL DEFAULT 1,   -- raised by any change to what or when an occurrence runs
    declared_hash    text,                              -- code/config: the declaration last applied
    catch_up_cut_from timestamptz,                      -- the last catch-up cut at its limit: missed times skipped
    catch_up_cut_to   timestamptz,
    created_at       timestamptz  NOT NULL DEFAULT clock_timestamp(),
    updated_at       timestamptz  NOT NULL DEFAULT clock_timestamp(),
    updated_by       text,
    CONSTRAINT schedules_one_mode CHECK (
        (cron IS NOT NULL AND anchor IS NULL AND interval_count IS NULL AND interval_unit IS NULL)
     OR (cron IS NULL AND anchor IS NOT NULL AND interval_count IS NOT NULL AND interval_unit IS NOT NULL)),
    CONSTRAINT schedules_live_key UNIQUE (id, version, enabled)    -- what a live occurrence references
);

CREATE TABLE dispatch.schedule_occurrences (
    id                bigserial    PRIMARY KEY,
    schedule_id       bigint       NOT NULL,                        -- no plain FK: history outlives a deleted schedule
    schedule_version  integer      NOT NULL,
    kind              text         NOT NULL DEFAULT 'grid' CHECK (kind IN ('grid', 'extra')),
    state             text         NOT NULL DEFAULT 'future' CHECK (state IN ('future', 'admitted', 'skipped', 'superseded')),
    run_at            timestamptz  NOT NULL,
    submission_id     bigint       NOT NULL UNIQUE,                 -- = staged_jobs.id, then admissions.submission_id
    overdue_seq       integer      NOT NULL DEFAULT 0,              -- consecutive grid occurrences created already due
    snapshot          jsonb        NOT NULL,                        -- the definition it was created from; never compared
    reason            text,                                         -- operator, drained, edited, disabled, deleted, …
    created_at        timestamptz  NOT NULL DEFAULT clock_timestamp(),
    ended_at          timestamptz,
    execution_id      bigint,                                       -- the first execution (restarts: see admissions)
    live_version      integer GENERATED ALWAYS AS (CASE WHEN state = 'future' AND kind = 'grid' THEN schedule_version END) STORED,
    live_enabled      boolean GENERATED ALWAYS AS (CASE WHEN state = 'future' AND kind = 'grid' THEN true END) STORED,
    CONSTRAINT schedule_occurrences_live_fk FOREIGN KEY (schedule_id, live_version, live_enabled)
        REFERENCES dispatch.schedules (id, version, enabled),
    CONSTRAINT schedule_occurrences_ended CHECK ((state = 'future') = (ended_at IS NULL))
);
CREATE UNIQUE INDEX schedule_occurrences_live_idx ON dispatch.schedule_occurrences (schedule_id)
    WHERE state = 'future' AND kind = 'grid';
CREATE INDEX schedule_occurrences_schedule_idx ON dispatch.schedule_occurrences (schedule_id, run_at DESC);
CREATE INDEX schedule_occurrences_ended_idx ON dispatch.schedule_occurrences (ended_at) WHERE ended_at IS NOT NULL;

-- The schedule a staged job is an occurrence of (NULL for every other job): admission chains only when set.
ALTER TABLE dispatch.staged_jobs ADD COLUMN schedule_id bigint;
