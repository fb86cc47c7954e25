-- A schedule's deadline (issue 36, ADR 0036): how long after its run time an occurrence may still be admitted.
-- Its staged row carries it as expires_at, so the tick's expiry and the admission's take treat an occurrence as
-- they treat any job; an expired occurrence is ended 'skipped' with reason 'expired' and the next one staged.
ALTER TABLE dispatch.schedules ADD COLUMN deadline_ms bigint CHECK (deadline_ms IS NULL OR deadline_ms >= 1000);
