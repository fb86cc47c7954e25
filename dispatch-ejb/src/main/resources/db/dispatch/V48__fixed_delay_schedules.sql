-- Fixed-delay schedules (issue 39, ADR 0054): "run again D after the previous run ended, never two at once". A third
-- timing mode beside cron and anchor + interval: delay_ms alone.
ALTER TABLE dispatch.schedules ADD COLUMN delay_ms bigint CHECK (delay_ms >= 1000),
    DROP CONSTRAINT schedules_one_mode,
    ADD CONSTRAINT schedules_one_mode CHECK (
        (cron IS NOT NULL AND anchor IS NULL AND interval_count IS NULL AND interval_unit IS NULL AND delay_ms IS NULL)
     OR (cron IS NULL AND anchor IS NOT NULL AND interval_count IS NOT NULL AND interval_unit IS NOT NULL AND delay_ms IS NULL)
     OR (cron IS NULL AND anchor IS NULL AND interval_count IS NULL AND interval_unit IS NULL AND delay_ms IS NOT NULL));

-- An occurrence of a fixed-delay schedule is live from its staging until its job has ended for good (after its
-- retries): awaits_end from its admission to that end, finished_at when it came (the next is due D after it).
ALTER TABLE dispatch.schedule_occurrences ADD COLUMN awaits_end boolean NOT NULL DEFAULT false,
    ADD COLUMN finished_at timestamptz;
CREATE INDEX schedule_occurrences_awaiting_idx ON dispatch.schedule_occurrences (schedule_id) WHERE awaits_end;

-- The end hook (ADR 0051) finds a fixed-delay occurrence's end through a follower of kind 'schedule'.
ALTER TABLE dispatch.followers DROP CONSTRAINT followers_kind_check,
    ADD CONSTRAINT followers_kind_check CHECK (kind IN ('job', 'group', 'callback', 'schedule')),
    DROP CONSTRAINT followers_shape,
    ADD CONSTRAINT followers_shape CHECK ((kind = 'callback') = (after_submission IS NULL)
                                          AND (kind IN ('job', 'schedule') OR group_id IS NOT NULL));
