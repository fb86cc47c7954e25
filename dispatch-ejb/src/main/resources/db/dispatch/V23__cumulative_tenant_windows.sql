-- Demotion counts kept cumulatively (ADR 0011): a tenant's ring holds, per bucket, the submissions
-- counted before that bucket began ("older"), beside the running total of its submissions. A window of
-- the newest m buckets then holds total - older[m]: two subscripts where the ring of per-bucket counts
-- needed a sum over a slice of it (a set-returning function on every submission, the cost of checking
-- a guessed placement). A submission in the newest bucket adds to the total alone; the ring itself
-- changes only when a bucket begins (ring_moved).
--   total: every submission counted for the tenant at this resolution (bigint: never wraps)
--   older: older[i] = submissions before bucket newest - i + 1 began; as long as the longest window of
--          the policy's rules at that resolution needs
ALTER TABLE dispatch.tenant_windows ADD COLUMN total bigint, ADD COLUMN older bigint[];

UPDATE dispatch.tenant_windows t
   SET total = (SELECT coalesce(sum(x), 0) FROM unnest(t.counts) AS x),
       older = ARRAY(SELECT coalesce(sum(u.x) OVER (ORDER BY u.i DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                       FROM unnest(t.counts) WITH ORDINALITY AS u(x, i)
                      ORDER BY u.i);

ALTER TABLE dispatch.tenant_windows ALTER COLUMN total SET NOT NULL, ALTER COLUMN older SET NOT NULL, DROP COLUMN counts;

-- The ring after `n` submissions in bucket `bucket`, where it was last moved to `newest`, cut or padded
-- to `slots` buckets. Called only when the ring changes shape: a new bucket began, a late writer (a
-- statement that began before another moved the ring on), or the rules changed its length.
CREATE FUNCTION dispatch.ring_moved(older bigint[], total bigint, newest bigint, bucket bigint, n integer, slots integer)
    RETURNS bigint[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    ring bigint[] := older;
    known integer := coalesce(cardinality(older), 0);
BEGIN
    IF known < slots THEN
        -- buckets past the ring's end hold nothing it knows of
        ring := ring || array_fill(coalesce(older[known], 0), ARRAY[slots - known]);
    END IF;
    IF bucket > newest THEN
        -- every bucket from the old newest (exclusive) to this one began after all counted so far
        ring := array_fill(total, ARRAY[least(bucket - newest, slots)::integer]) || ring;
    ELSIF bucket < newest THEN
        -- a late writer: its submissions are older than each bucket newer than its own
        FOR i IN 1 .. least(newest - bucket, slots) LOOP
            ring[i] := ring[i] + n;
        END LOOP;
    END IF;
    RETURN ring[1:slots];
END $$;

-- The ring after `n` submissions in bucket `bucket`: unchanged while the bucket is the newest and the
-- ring its length (the total alone counts them), else moved. A plain SQL expression, so PostgreSQL
-- inlines it into the counting statements and calls ring_moved only when the ring changes shape.
CREATE FUNCTION dispatch.ring_add(older bigint[], total bigint, newest bigint, bucket bigint, n integer, slots integer)
    RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN bucket = newest AND cardinality(older) = slots THEN older
                ELSE dispatch.ring_moved(older, total, newest, bucket, n, slots) END
$$;

-- A rule's window at the statement's time: the buckets that start after (time - per_s), i.e. the newest
-- newest + ceil((per_s - time) / resolution_s) of them, cut to the ring (TenantWindow counts alike).
-- Inlined too: two subscripts, no set-returning function.
CREATE FUNCTION dispatch.ring_window(total bigint, older bigint[], newest bigint, resolution_s integer, per_s integer)
    RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT total - coalesce(older[least(newest + ceil((per_s - extract(epoch FROM statement_timestamp())) / resolution_s)::bigint,
                                        cardinality(older))], total)
$$;

-- Whether a rule's window (rules at other resolutions are not this ring's) lies within [lo, hi], each
-- null for no bound: the check of a guessed placement (DemotedPlacement.bounds).
CREATE FUNCTION dispatch.ring_within(total bigint, older bigint[], newest bigint, resolution_s integer,
                                     rule_resolution_s integer, per_s integer, lo integer, hi integer)
    RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT resolution_s <> rule_resolution_s
        OR dispatch.ring_window(total, older, newest, resolution_s, per_s) BETWEEN coalesce(lo, 0) AND coalesce(hi, 2147483647)
$$;
