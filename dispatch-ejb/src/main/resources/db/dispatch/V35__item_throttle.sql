-- The item-level throttle's buckets (issue 35, deliverable 4; ADR 0034): one per partition key of a policy with an
-- item throttle, shared by every running job of the key on every node; refilled by the database's clock.
CREATE TABLE dispatch.item_buckets (
    policy_name   text             NOT NULL,
    partition_key text             NOT NULL,
    tokens        double precision NOT NULL,
    refilled_at   timestamptz      NOT NULL,
    PRIMARY KEY (policy_name, partition_key)
);
