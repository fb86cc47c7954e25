-- Who did what, when, on which object, with the values before and after and the outcome (issue 33,
-- ADR 0022): one row per operator action and object, kept for dispatch.audit-retention.
CREATE TABLE dispatch.audit_log (
    id            bigserial    PRIMARY KEY,
    at            timestamptz  NOT NULL DEFAULT clock_timestamp(),
    actor         text         NOT NULL,
    action        text         NOT NULL,
    target_kind   text         NOT NULL,
    target        text         NOT NULL,
    before_value  text,
    after_value   text,
    outcome       text         NOT NULL CHECK (outcome IN ('done', 'refused', 'failed')),
    detail        text
);
CREATE INDEX audit_log_at_idx ON dispatch.audit_log (at);
CREATE INDEX audit_log_target_idx ON dispatch.audit_log (target_kind, target, id DESC);
CREATE INDEX audit_log_actor_idx ON dispatch.audit_log (actor, id DESC);
