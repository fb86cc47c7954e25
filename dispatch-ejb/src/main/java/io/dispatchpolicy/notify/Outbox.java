package io.dispatchpolicy.notify;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;

/**
 * Where an event is recorded, in the caller's transaction: a delivery row per webhook subscribed to its type.
 * With none subscribed nothing is written (the usual case costs a volatile read). A statement that makes many
 * events at once (the tick's expiry) records them itself with {@link #fanOut}, in the same statement.
 */
@ApplicationScoped
public class Outbox {

    private static final Sql RECORD = Sql.of(fanOut("SELECT CAST(:eventId AS text) AS event_id, CAST(:payload AS jsonb) AS payload",
            ":type"));

    @Inject
    Jdbc jdbc;

    @Inject
    Webhooks webhooks;

    /**
     * Records an event for each webhook subscribed to {@code type}.
     *
     * @param eventId the same for every attempt and webhook: what a receiver drops a repeat by
     * @param data    the event's {@code data} (strings, numbers, booleans, nulls and maps of them)
     */
    public void record(EventType type, String eventId, Map<String, ?> data) {
        List<String> hooks = webhooks.subscribers(type);
        if (hooks.isEmpty()) {
            return;
        }
        jdbc.update(RECORD, Params.of().texts("hooks", hooks).text("type", type.wire()).text("eventId", eventId)
                .text("payload", JsonCodec.writeNested(data)));
    }

    /** The webhooks subscribed to {@code type}: the {@code :hooks} of a statement that embeds {@link #fanOut}. */
    public List<String> hooks(EventType type) {
        return webhooks.subscribers(type);
    }

    /**
     * An INSERT recording one event per row of {@code rows} (columns {@code event_id text, payload jsonb}) for each
     * webhook in {@code :hooks} (text[]; empty: nothing), as a statement or a data-modifying CTE's body.
     *
     * @param type a SQL expression of the event's type: a parameter, or a quoted {@link EventType#wire()}
     */
    public static String fanOut(String rows, String type) {
        return "INSERT INTO dispatch.webhook_deliveries (webhook, event_type, event_id, payload) "
                + "SELECT h.name, " + type + ", r.event_id, r.payload FROM (" + rows + ") r "
                + "CROSS JOIN unnest(CAST(:hooks AS text[])) AS h(name)";
    }
}
