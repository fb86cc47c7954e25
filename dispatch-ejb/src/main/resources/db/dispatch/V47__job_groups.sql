-- Groups (issue 39, ADR 0052): jobs submitted together, counted as each ends for good, with callbacks staged once when
-- the last has ended. A member is a follower of kind 'group' (the end hook's one probe finds it); a callback is a
-- follower of kind 'callback' that waits for its group, not a submission.
CREATE TABLE dispatch.job_groups (
    id            bigserial    PRIMARY KEY,
    name          text         NOT NULL,
    created_by    text,
    created_at    timestamptz  NOT NULL DEFAULT clock_timestamp(),
    -- members staged by the submission; each ends once as completed, failed (for good: dead, or no retries), stopped (an
    -- operator's stop) or discarded (taken out before it ran: a cancel, a deadline, a bulk discard)
    total         integer      NOT NULL DEFAULT 0,
    completed     integer      NOT NULL DEFAULT 0,
    failed        integer      NOT NULL DEFAULT 0,
    stopped       integer      NOT NULL DEFAULT 0,
    discarded     integer      NOT NULL DEFAULT 0,
    cancelled_at  timestamptz,
    cancelled_by  text,
    ended_at      timestamptz,
    CONSTRAINT job_groups_counts CHECK (completed + failed + stopped + discarded <= total)
);
CREATE INDEX job_groups_ended_idx ON dispatch.job_groups (ended_at) WHERE ended_at IS NOT NULL;

ALTER TABLE dispatch.followers ALTER COLUMN after_submission DROP NOT NULL,
    ADD COLUMN group_id bigint REFERENCES dispatch.job_groups (id) ON DELETE CASCADE,
    DROP CONSTRAINT followers_kind_check,
    ADD CONSTRAINT followers_kind_check CHECK (kind IN ('job', 'group', 'callback')),
    DROP CONSTRAINT followers_state_check,
    ADD CONSTRAINT followers_state_check CHECK (state IN ('waiting', 'staged', 'skipped', 'refused', 'counted')),
    ADD CONSTRAINT followers_shape CHECK ((kind = 'callback') = (after_submission IS NULL) AND (kind = 'job' OR group_id IS NOT NULL));
-- a group's members and callbacks
CREATE INDEX followers_group_idx ON dispatch.followers (group_id, kind) WHERE group_id IS NOT NULL;

ALTER TABLE dispatch.discarded_jobs DROP CONSTRAINT discarded_jobs_reason_check,
    ADD CONSTRAINT discarded_jobs_reason_check CHECK (reason IN ('expired', 'dropped', 'replaced', 'discarded', 'cancelled'));
