-- Self-healing: each node reconciles its own in-flight rows with the runners its JVM holds, and a
-- job that a server's shutdown stopped is restarted instead of being left STOPPED.

-- A runner that ended STOPPED keeps its row (and its slot) with the time and status it ended with:
-- whether that stop was an operator's (the live node releases the row at its next reconcile) or the
-- server's own shutdown (whoever recovers the stopped node restarts the job) is only known later.
ALTER TABLE dispatch.inflight_jobs
    ADD COLUMN ended_at     timestamptz,
    ADD COLUMN ended_status text;

-- Reconcile reads all of a node's rows, started or not; the partial index served only the unstarted.
DROP INDEX dispatch.inflight_jobs_unstarted_idx;
CREATE INDEX inflight_jobs_node_idx ON dispatch.inflight_jobs (node_id, started_at);
