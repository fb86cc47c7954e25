-- Demotion of noisy tenants (ADR 0011). Submissions are counted per policy, tenant and time bucket (1 s
-- buckets for rules with windows up to a minute, 1 min buckets for longer ones): bounded space per
-- tenant, whatever it submits, and the same counts on every node. A window's count is the sum of its
-- buckets; the sweeper drops buckets older than the longest window allowed (a day).
CREATE TABLE dispatch.tenant_submissions (
    policy_name   text         NOT NULL,
    tenant        text         NOT NULL,
    resolution_s  integer      NOT NULL,
    bucket_start  timestamptz  NOT NULL,
    submissions   integer      NOT NULL,
    PRIMARY KEY (policy_name, tenant, resolution_s, bucket_start)
);
CREATE INDEX tenant_submissions_bucket_idx ON dispatch.tenant_submissions (bucket_start);

-- Tenants demoted lately, for the console: the rule that demoted them and until when at the latest
-- (a window after their last demoted submission).
CREATE TABLE dispatch.demotions (
    policy_name   text         NOT NULL,
    tenant        text         NOT NULL,
    lane          text         NOT NULL,
    rule          text         NOT NULL,
    submissions   integer      NOT NULL,
    demoted_at    timestamptz  NOT NULL,
    until         timestamptz  NOT NULL,
    PRIMARY KEY (policy_name, tenant)
);
CREATE INDEX demotions_until_idx ON dispatch.demotions (until);
