-- Priority aging (ADR 0009): a waiting job of a policy with agePriority(every, step, cap) gains `step`
-- every `every` until `cap`. The effective priority stays a stored, indexed value: the maintenance
-- thread raises it in bounded batches (rows whose next_age_at has passed, off the index below), so
-- the claim and the take remain top-k index reads. The aging rule is kept on the row, so a staged
-- job ages by the rule it was submitted under.
ALTER TABLE dispatch.staged_jobs
    ADD COLUMN next_age_at  timestamptz,
    ADD COLUMN age_every_ms bigint,
    ADD COLUMN age_step     integer,
    ADD COLUMN age_cap      integer;
CREATE INDEX staged_jobs_age_idx ON dispatch.staged_jobs (next_age_at) WHERE next_age_at IS NOT NULL;
