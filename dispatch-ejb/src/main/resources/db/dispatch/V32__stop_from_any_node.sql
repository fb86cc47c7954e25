-- Stop from any node (issue 35, deliverable 6): a stop asked on one node is recorded on the in-flight row
-- (stop_requested_at, since V25); the node that runs the execution delivers it to its JBeret within a
-- second and records when, so the job's page can say where the request stands.
ALTER TABLE dispatch.inflight_jobs ADD COLUMN stop_delivered_at timestamptz;
