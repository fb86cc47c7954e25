-- History (issue 15), kept for dispatch.metrics-retention like the tick samples.
-- Per partition and minute: jobs admitted, executions completed and failed. The admission's bookkeeping
-- statement and the runner's end each add to their minute's row (one row per partition and minute
-- with activity): the policy and partition pages chart them.
CREATE TABLE dispatch.partition_minutes (
    partition_id  bigint       NOT NULL,
    minute        timestamptz  NOT NULL,
    policy_name   text         NOT NULL,
    admitted      integer      NOT NULL DEFAULT 0,
    completed     integer      NOT NULL DEFAULT 0,
    failed        integer      NOT NULL DEFAULT 0,
    PRIMARY KEY (partition_id, minute)
);
CREATE INDEX partition_minutes_policy_idx ON dispatch.partition_minutes (policy_name, minute);
CREATE INDEX partition_minutes_minute_idx ON dispatch.partition_minutes (minute);

-- Denial episodes: one row while a partition keeps being denied for the same reason (its count and last
-- time rise), a new one when the reason changes. The partition points at its current episode.
CREATE TABLE dispatch.denial_history (
    id            bigserial    PRIMARY KEY,
    partition_id  bigint       NOT NULL,
    policy_name   text         NOT NULL,
    partition_key text         NOT NULL,
    reason        text         NOT NULL,
    started_at    timestamptz  NOT NULL,
    last_at       timestamptz  NOT NULL,
    denials       integer      NOT NULL
);
CREATE INDEX denial_history_last_idx ON dispatch.denial_history (last_at);
ALTER TABLE dispatch.partitions ADD COLUMN denial_history_id bigint;
