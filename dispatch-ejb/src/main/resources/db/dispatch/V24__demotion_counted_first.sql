-- Demotion is counted one way (issue 32, ADR 0011): the counting statement returns each tenant's ring and
-- the engine places the call's jobs by it before staging them. The check of a guessed placement inside the
-- counting statement is gone, and with it the two functions only that check used.
DROP FUNCTION dispatch.ring_within(bigint, bigint[], bigint, integer, integer, integer, integer, integer);
DROP FUNCTION dispatch.ring_window(bigint, bigint[], bigint, integer, integer);
