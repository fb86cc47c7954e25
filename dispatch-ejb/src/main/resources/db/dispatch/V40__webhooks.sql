-- Webhook notifications (ADR 0041). An event is recorded in the transaction that makes it happen (a job
-- buried dead, expired, a partition paused, a bulk action ended): one row per declared webhook subscribed to
-- its type, so an event exists exactly when what it tells of committed. Delivery is the maintenance's business
-- (any node), at least once, with retries and backoff; nothing here is read by an admission.
CREATE TABLE dispatch.webhook_deliveries (
    id               bigserial    PRIMARY KEY,
    webhook          text         NOT NULL,
    event_type       text         NOT NULL,
    -- the same for every webhook and every attempt of one event: a receiver's key to drop a repeat
    event_id         text         NOT NULL,
    payload          jsonb        NOT NULL,
    created_at       timestamptz  NOT NULL DEFAULT clock_timestamp(),
    state            text         NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         integer      NOT NULL DEFAULT 0,
    -- pending: when it may be sent (again); while an attempt is out, the end of its lease
    next_attempt_at  timestamptz  NOT NULL DEFAULT clock_timestamp(),
    last_status      integer,
    last_error       text,
    ended_at         timestamptz
);
-- The delivery's claim reads the due rows off this index; delivered and failed rows are not in it.
CREATE INDEX webhook_deliveries_due_idx ON dispatch.webhook_deliveries (next_attempt_at, id) WHERE state = 'pending';
-- Retention reads the oldest ended rows; the API's summary counts a webhook's recent ones.
CREATE INDEX webhook_deliveries_ended_idx ON dispatch.webhook_deliveries (webhook, ended_at) WHERE state <> 'pending';
