-- Execution timeouts and the progress watchdog (issue 35, ADR 0030).
-- A submission's own timeouts (SubmitOption.timeout / progressTimeout), in milliseconds: kept with its
-- staged row and, once admitted, with its admission, which its retries copy them from.
ALTER TABLE dispatch.staged_jobs ADD COLUMN run_timeout_ms bigint, ADD COLUMN progress_timeout_ms bigint;
ALTER TABLE dispatch.admissions ADD COLUMN run_timeout_ms bigint, ADD COLUMN progress_timeout_ms bigint;
-- What an in-flight execution may use: the slots it holds (cost; every gate, capacity and lane count sums
-- it, and a timed-out execution whose thread has not let go yet holds none), the timeouts in force for
-- it (the submission's, else its policy's for its job name, else its policy's), and what the watchdog
-- saw of its progress: a mark of JBeret's step and partition rows (their row versions) and when it last
-- changed, on the database's clock. timed_out_at and timeout_reason say that, and why, it was stopped.
ALTER TABLE dispatch.inflight_jobs
    ADD COLUMN cost integer NOT NULL DEFAULT 1,
    ADD COLUMN run_timeout_ms bigint,
    ADD COLUMN progress_timeout_ms bigint,
    ADD COLUMN progress_mark bigint,
    ADD COLUMN progress_at timestamptz,
    ADD COLUMN timed_out_at timestamptz,
    ADD COLUMN timeout_reason text;
