-- Demotion counts as one row per policy, tenant and resolution (ADR 0011): a ring of bucket counts,
-- newest first, instead of a row per bucket. A submission updates its tenant's one row in place (a HOT
-- update on half-empty pages: no index holds a column it changes) and reads the whole window from it,
-- where a row per bucket meant an index insert every second and a scan of up to 60 rows a call; and
-- the row-per-bucket statement's plan depended on the table's statistics (PostgreSQL re-planned it on
-- every call once they were gathered). Space per tenant: one row per resolution its policy's rules use.
--   newest: the number of the newest bucket (epoch seconds / resolution_s, rounded down)
--   counts: counts[1] is bucket newest, counts[i] bucket newest - i + 1; as long as the longest window
--           of the policy's rules at that resolution needs (at most 60 one-second or 1,440 one-minute)
CREATE TABLE dispatch.tenant_windows (
    policy_name   text     NOT NULL,
    tenant        text     NOT NULL,
    resolution_s  integer  NOT NULL,
    newest        bigint   NOT NULL,
    counts        integer[] NOT NULL,
    PRIMARY KEY (policy_name, tenant, resolution_s)
) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);

-- The counts of the buckets still inside a day, carried over.
INSERT INTO dispatch.tenant_windows (policy_name, tenant, resolution_s, newest, counts)
SELECT t.policy_name, t.tenant, t.resolution_s, t.newest,
       ARRAY(SELECT coalesce(sum(b.submissions), 0)::int
               FROM generate_series(0, CASE WHEN t.resolution_s = 1 THEN 59 ELSE 1439 END) AS age
               LEFT JOIN dispatch.tenant_submissions b
                 ON b.policy_name = t.policy_name AND b.tenant = t.tenant AND b.resolution_s = t.resolution_s
                AND floor(extract(epoch FROM b.bucket_start) / b.resolution_s)::bigint = t.newest - age
              GROUP BY age ORDER BY age)
  FROM (SELECT policy_name, tenant, resolution_s, max(floor(extract(epoch FROM bucket_start) / resolution_s))::bigint AS newest
          FROM dispatch.tenant_submissions
         WHERE bucket_start > clock_timestamp() - interval '1 day'
         GROUP BY policy_name, tenant, resolution_s) t;

DROP TABLE dispatch.tenant_submissions;
