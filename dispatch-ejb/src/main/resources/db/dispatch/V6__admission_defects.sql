-- When every throttle bucket of the partition is full again (computed at its last admission from the
-- charged state and the rate then in force). The sweeper keeps the partition, and so its spent
-- tokens, until then: a 2-per-week throttle admits 2 per week however long the partition idles.
ALTER TABLE dispatch.partitions ADD COLUMN buckets_full_at timestamptz;
