-- A job's cost (issue 35 deliverable 2, ADR 0035): the batch threads it takes at its widest, and so the
-- slots it takes of every gate, capacity and lane, and the tokens of every throttle. Set at submission
-- (the submission's own, else its policy's for its job name, else read from its job XML) and kept with
-- the staged row and the admission, which a retry copies it from; the in-flight row has had it since V31.
ALTER TABLE dispatch.staged_jobs ADD COLUMN cost integer NOT NULL DEFAULT 1 CHECK (cost >= 1);
ALTER TABLE dispatch.admissions ADD COLUMN cost integer NOT NULL DEFAULT 1 CHECK (cost >= 1);
