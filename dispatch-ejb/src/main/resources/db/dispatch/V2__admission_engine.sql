-- Admission engine: gate state, fairness, pause, deny state, parking, restarts, adaptive stats,
-- tick samples.

ALTER TABLE dispatch.partitions
    ADD COLUMN gate_state        jsonb            NOT NULL DEFAULT '{}'::jsonb,
    ADD COLUMN decayed_admits    double precision NOT NULL DEFAULT 0,
    ADD COLUMN decayed_admits_at timestamptz,
    ADD COLUMN paused            boolean          NOT NULL DEFAULT false,
    ADD COLUMN last_denied_at    timestamptz,
    ADD COLUMN last_deny_reason  text,
    ADD COLUMN parked_count      integer          NOT NULL DEFAULT 0;

-- Paused partitions leave the claim index, so a paused policy costs the claim nothing.
DROP INDEX dispatch.partitions_claim_idx;
CREATE INDEX partitions_claim_idx ON dispatch.partitions (last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0 AND NOT paused;
-- The sweeper looks for idle, empty partitions.
CREATE INDEX partitions_idle_idx ON dispatch.partitions (last_admitted_at) WHERE pending_count = 0;

-- Pause state per policy; also read when a partition is created, so new partitions of a paused
-- policy are born paused.
CREATE TABLE dispatch.policies (
    name        text         PRIMARY KEY,
    paused_at   timestamptz,
    updated_at  timestamptz  NOT NULL DEFAULT now()
);

ALTER TABLE dispatch.staged_jobs
    ADD COLUMN admit_attempts  integer      NOT NULL DEFAULT 0,
    ADD COLUMN last_error      text,
    ADD COLUMN parked_at       timestamptz,
    -- a restart: the JBeret execution to restart (its instance continues from its checkpoint)
    ADD COLUMN restart_of      bigint;

DROP INDEX dispatch.staged_jobs_partition_idx;
CREATE INDEX staged_jobs_admit_idx ON dispatch.staged_jobs (partition_id, id) WHERE parked_at IS NULL;
CREATE INDEX staged_jobs_parked_idx ON dispatch.staged_jobs (partition_id, parked_at) WHERE parked_at IS NOT NULL;

-- Adaptive concurrency state, per partition and gate. Written by job completions, read by admission:
-- a table of its own so completions never wait on the partition row lock admission holds.
CREATE TABLE dispatch.adaptive_stats (
    partition_id          bigint           NOT NULL REFERENCES dispatch.partitions (id) ON DELETE CASCADE,
    gate_id               text             NOT NULL,
    current_max           integer          NOT NULL,
    ewma_lag_ms           double precision NOT NULL DEFAULT 0,
    consecutive_failures  integer          NOT NULL DEFAULT 0,
    observations          bigint           NOT NULL DEFAULT 0,
    updated_at            timestamptz      NOT NULL DEFAULT now(),
    PRIMARY KEY (partition_id, gate_id)
);

-- Admissions of restarts overwrite the submission's mapping; sweep by age.
CREATE INDEX admissions_admitted_at_idx ON dispatch.admissions (admitted_at);

-- One row per tick run per node: what the console charts.
CREATE TABLE dispatch.tick_samples (
    id           bigserial    PRIMARY KEY,
    node_id      uuid         NOT NULL,
    started_at   timestamptz  NOT NULL,
    duration_ms  integer      NOT NULL,
    iterations   integer      NOT NULL,
    claimed      integer      NOT NULL,
    admitted     integer      NOT NULL,
    denied       jsonb        NOT NULL DEFAULT '{}'::jsonb,
    pending      bigint       NOT NULL,
    in_flight    bigint       NOT NULL
);
CREATE INDEX tick_samples_started_idx ON dispatch.tick_samples (started_at);
