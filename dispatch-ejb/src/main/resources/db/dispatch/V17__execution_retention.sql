-- Retention of JBeret's executions (ADR 0015): what the pruning has deleted so far, for the console.
-- One row; the pruning statement adds to it in its own transaction.
CREATE TABLE dispatch.pruning (
    id                   integer      PRIMARY KEY CHECK (id = 1),
    instances_pruned     bigint       NOT NULL DEFAULT 0,
    executions_pruned    bigint       NOT NULL DEFAULT 0,
    last_pruned_at       timestamptz
);
INSERT INTO dispatch.pruning (id) VALUES (1);
