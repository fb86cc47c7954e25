-- Console: how busy each tick was, and indexes for browsing 100,000 partitions page by page.

ALTER TABLE dispatch.tick_samples ADD COLUMN busy_ms integer NOT NULL DEFAULT 0;

CREATE INDEX partitions_pending_sort_idx ON dispatch.partitions (pending_count DESC, id);
CREATE INDEX partitions_admitted_sort_idx ON dispatch.partitions (total_admitted DESC, id);
CREATE INDEX partitions_denied_idx ON dispatch.partitions (last_denied_at DESC) WHERE last_denied_at IS NOT NULL;

-- Executions that ended since the previous sample, and how many of them FAILED (counted in memory by
-- each node's runner wrapper, written with the sample: no shared counter row on the hot path).
ALTER TABLE dispatch.tick_samples ADD COLUMN completed integer NOT NULL DEFAULT 0,
                                  ADD COLUMN failed integer NOT NULL DEFAULT 0;
