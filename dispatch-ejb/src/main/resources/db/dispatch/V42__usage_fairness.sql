-- Fairness by usage (ADR 0048). A partition of a policy that orders by usage keeps the slot-seconds its jobs ran,
-- decayed with the policy's half-life: decayed_usage as it stood at usage_at. A job's run is added when its
-- in-flight row goes (it ended, or its node's rows were released), in the statement that deletes the row; while it
-- runs, the claim adds what it has run so far. usage_half_life on the in-flight row says the job is counted (the
-- policy's half-life at its admission, seconds); NULL for every other policy, whose rows cost nothing here.
ALTER TABLE dispatch.partitions ADD COLUMN decayed_usage double precision NOT NULL DEFAULT 0;
ALTER TABLE dispatch.partitions ADD COLUMN usage_at timestamptz;
ALTER TABLE dispatch.inflight_jobs ADD COLUMN usage_half_life double precision;
