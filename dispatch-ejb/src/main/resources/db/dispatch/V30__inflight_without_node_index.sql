-- The start mark every job pays (issue 34, benchmarks run 32): once PostgreSQL cached a generic plan for
-- "WHERE execution_id = $1 AND node_id = $2", it chose inflight_jobs_node_idx, estimated at 4 rows from
-- the table's statistics. But every row of a node has the same node_id — with one node, every row of the
-- table — and between two autovacuum runs the index holds the churn of a minute: the mark read 20,000
-- index entries and 755 heap pages to find its one row (826 us a job, more than JBeret's whole job).
-- The rows are read by node only in the upkeep's passes (this node's rows; a gone node's), over a table of
-- a few hundred live rows: those scan it. Every statement of a job's life finds its row by its key.
DROP INDEX dispatch.inflight_jobs_node_idx;
