-- Foundation schema: staging, partitions, admissions, in-flight jobs and nodes.
-- Everything lives in schema "dispatch" on JBeret's datasource, so one JTA transaction covers
-- our rows and JBeret's JOB_INSTANCE / JOB_EXECUTION rows.

-- Submission ids start at 10^12 so they never collide with JBeret execution ids (ADR 0002).
CREATE SEQUENCE dispatch.submission_id_seq START WITH 1000000000000 CACHE 50;

CREATE TABLE dispatch.partitions (
    id                 bigserial    PRIMARY KEY,
    policy_name        text         NOT NULL,
    partition_key      text         NOT NULL,
    context            jsonb        NOT NULL DEFAULT '{}'::jsonb,
    context_updated_at timestamptz  NOT NULL DEFAULT now(),
    pending_count      integer      NOT NULL DEFAULT 0 CHECK (pending_count >= 0),
    total_admitted     bigint       NOT NULL DEFAULT 0,
    last_checked_at    timestamptz,
    last_admitted_at   timestamptz,
    next_eligible_at   timestamptz,
    created_at         timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT partitions_policy_key UNIQUE (policy_name, partition_key)
);

-- The claim walks this index in order and stops after partition_batch_size rows: its cost depends on
-- the batch, not on how many partitions or jobs exist. Idle partitions are not in the index at all.
CREATE INDEX partitions_claim_idx ON dispatch.partitions (last_checked_at NULLS FIRST, id)
    WHERE pending_count > 0;

CREATE TABLE dispatch.staged_jobs (
    id              bigint       PRIMARY KEY DEFAULT nextval('dispatch.submission_id_seq'),
    partition_id    bigint       NOT NULL REFERENCES dispatch.partitions (id),
    job_name        text         NOT NULL,
    job_parameters  jsonb        NOT NULL,
    submitted_by    text,
    staged_at       timestamptz  NOT NULL DEFAULT now()
);
ALTER SEQUENCE dispatch.submission_id_seq OWNED BY dispatch.staged_jobs.id;

-- Admission takes the oldest staged jobs of one partition: an index range scan of exactly that many.
CREATE INDEX staged_jobs_partition_idx ON dispatch.staged_jobs (partition_id, id);

-- Resolves a submission id to the JBeret execution created for it.
CREATE TABLE dispatch.admissions (
    submission_id  bigint       PRIMARY KEY,
    execution_id   bigint       NOT NULL UNIQUE,
    partition_id   bigint       NOT NULL,
    admitted_at    timestamptz  NOT NULL
);

-- Nodes (server incarnations) and their heartbeats: in-flight rows belong to one.
CREATE TABLE dispatch.nodes (
    id            uuid         PRIMARY KEY,
    node_name     text         NOT NULL,
    started_at    timestamptz  NOT NULL,
    heartbeat_at  timestamptz  NOT NULL,
    stopped_at    timestamptz
);
CREATE INDEX nodes_name_idx ON dispatch.nodes (node_name);

-- Admitted jobs whose execution has not finished. started_at stays NULL until the runner begins:
-- a row of a dead node with started_at NULL was committed but never submitted, and is recovered.
CREATE TABLE dispatch.inflight_jobs (
    execution_id   bigint       PRIMARY KEY,
    submission_id  bigint       NOT NULL,
    partition_id   bigint       NOT NULL,
    node_id        uuid         NOT NULL,
    admitted_at    timestamptz  NOT NULL,
    started_at     timestamptz
);
CREATE INDEX inflight_jobs_partition_idx ON dispatch.inflight_jobs (partition_id);
CREATE INDEX inflight_jobs_unstarted_idx ON dispatch.inflight_jobs (node_id) WHERE started_at IS NULL;
