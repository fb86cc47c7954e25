-- Node liveness: every boot of a server holds a session-level advisory lock, keyed by its lock_key,
-- on a connection of its own. PostgreSQL drops the lock the moment that session dies (a killed
-- server's socket closes), so a survivor tells "dead" from "slow" within seconds: no lock and no
-- heartbeat for two intervals is dead; a lock held is alive however late the heartbeat.
CREATE SEQUENCE dispatch.node_lock_key_seq AS integer;
ALTER TABLE dispatch.nodes ADD COLUMN lock_key integer UNIQUE;
