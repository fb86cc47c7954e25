-- The limit keys in-flight rows hold (ADR 0049), one row per key, looked up by btree. The GIN index over
-- inflight_jobs.limit_keys it replaces kept every dead row's entries until a vacuum and, unlike a btree, never
-- learns to skip them: under churn (every admission inserts, every end deletes) a key's count visited thousands
-- of dead rows, under the key's lock (benchmark run 41). A row goes with its in-flight row (ON DELETE CASCADE),
-- by whichever path that goes; the array stays on the in-flight row for reading.
CREATE TABLE dispatch.inflight_limit_keys (
    limit_key     text   NOT NULL,
    execution_id  bigint NOT NULL REFERENCES dispatch.inflight_jobs (execution_id) ON DELETE CASCADE,
    PRIMARY KEY (limit_key, execution_id)
);
CREATE INDEX inflight_limit_keys_execution_idx ON dispatch.inflight_limit_keys (execution_id);

INSERT INTO dispatch.inflight_limit_keys (limit_key, execution_id)
SELECT DISTINCT k, f.execution_id FROM dispatch.inflight_jobs f, unnest(f.limit_keys) AS k WHERE f.limit_keys IS NOT NULL;

DROP INDEX dispatch.inflight_jobs_limit_keys_idx;
