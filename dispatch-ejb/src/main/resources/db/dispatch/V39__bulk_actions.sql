-- Bulk actions by filter (ADR 0039): one row per operator's request, its progress kept as it runs in batches, so
-- any node's maintenance carries it on (a batch holds the row's lock: one node at a time) and the console and
-- the API show it. Jobs with submission ids up to upper_id match: what existed when the operator confirmed.
CREATE TABLE dispatch.bulk_actions (
    id                   bigserial    PRIMARY KEY,
    kind                 text         NOT NULL CHECK (kind IN ('DISCARD', 'EXPIRE', 'STOP', 'RESTART', 'RETRY')),
    filter               jsonb        NOT NULL,
    requested_by         text         NOT NULL,
    requested_at         timestamptz  NOT NULL DEFAULT clock_timestamp(),
    state                text         NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'cancelled', 'failed')),
    matched              bigint       NOT NULL,
    done                 bigint       NOT NULL DEFAULT 0,
    skipped              bigint       NOT NULL DEFAULT 0,
    failed               bigint       NOT NULL DEFAULT 0,
    last_error           text,
    cursor_id            bigint       NOT NULL DEFAULT 0,
    upper_id             bigint       NOT NULL,
    cancel_requested_by  text,
    updated_at           timestamptz  NOT NULL DEFAULT clock_timestamp(),
    finished_at          timestamptz
);
-- the runner takes the oldest running one
CREATE INDEX bulk_actions_running_idx ON dispatch.bulk_actions (id) WHERE state = 'running';

-- an operator's discard of staged jobs is kept like a control's (findable in the Jobs view as DISCARDED)
ALTER TABLE dispatch.discarded_jobs DROP CONSTRAINT discarded_jobs_reason_check,
    ADD CONSTRAINT discarded_jobs_reason_check CHECK (reason IN ('expired', 'dropped', 'replaced', 'discarded'));
