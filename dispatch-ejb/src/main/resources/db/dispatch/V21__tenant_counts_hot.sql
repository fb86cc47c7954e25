-- A tenant's current bucket is updated by every submission it makes (ADR 0011). With full pages such an
-- update cannot stay on its page (no HOT update): each one adds entries to both indexes, and the window
-- sums, which read a tenant's buckets off the primary key, wade through them. Half-empty pages keep the
-- updates on their page; autovacuum visits the table after every 10,000 dead rows, not a fraction of it.
ALTER TABLE dispatch.tenant_submissions SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
                                              autovacuum_vacuum_threshold = 10000);
