-- A STOPPED end is an operator's stop only if an operator asked for it (issue 33, ADR 0021): the engine's
-- stop paths (the governed operator, the console) record the request on the in-flight row. Any other stop
-- — this node's suspend or shutdown, WildFly's batch subsystem suspending another node that shares the job
-- repository — is an interruption, and the job runs again through its policy.
ALTER TABLE dispatch.inflight_jobs ADD COLUMN stop_requested_at timestamptz;
