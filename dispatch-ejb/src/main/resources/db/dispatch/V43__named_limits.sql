-- Named limits shared by several policies (ADR 0049). A limit's throttle state per key ('' for its total) is a row
-- here: an admission locks the rows of every limit key its job passes, in (limit_name, limit_key) order, after its
-- partition and its policy's capacity (the one lock order, so two policies sharing limits cannot deadlock), reads and
-- charges them in its own transaction. Concurrency needs no counter: the in-flight rows carry the limit keys they
-- hold ('<name>' for a total, '<name>/<key>' per key), summed under the same locks, and gone when the row goes, by
-- whichever path it goes.
CREATE TABLE dispatch.limit_state (
    limit_name  text             NOT NULL,
    limit_key   text             NOT NULL,
    tokens      double precision,
    counted_at  bigint,
    PRIMARY KEY (limit_name, limit_key)
);

ALTER TABLE dispatch.inflight_jobs ADD COLUMN limit_keys text[];
CREATE INDEX inflight_jobs_limit_keys_idx ON dispatch.inflight_jobs USING gin (limit_keys) WHERE limit_keys IS NOT NULL;
