-- The start mark every job pays (issue 34, benchmarks run 28): marking an in-flight row started cost
-- about 300 us a job, the dearest statement of a job's life, more than JBeret's INSERT of the execution.
-- started_at was a column of inflight_jobs_node_idx, so each mark wrote a new row version and an entry
-- in every index of the table (five). Indexed by node alone — a node's in-flight rows are few: its
-- running jobs — and with room left on each page, the mark is a heap-only update that touches no index.
DROP INDEX dispatch.inflight_jobs_node_idx;
CREATE INDEX inflight_jobs_node_idx ON dispatch.inflight_jobs (node_id);
ALTER TABLE dispatch.inflight_jobs SET (fillfactor = 50);
