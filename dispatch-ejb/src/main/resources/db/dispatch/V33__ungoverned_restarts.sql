-- Restarts owed to executions of ungoverned jobs that a gone server stranded (issue 35, ADR 0032): written
-- in the statement that marks them FAILED, deleted once the restart is made, so a node that dies in
-- between leaves the restart to another node instead of losing it.
CREATE TABLE dispatch.ungoverned_restarts (
    execution_id bigint      PRIMARY KEY,
    marked_by    uuid        NOT NULL,
    marked_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);
