package io.dispatchpolicy.notify;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;

import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/** Outboxes over a test database, for engine tests of the roles that record events. */
public final class TestOutbox {

    private TestOutbox() {
    }

    /** No webhook declared: recording writes nothing. */
    public static Outbox none(Jdbc jdbc) {
        return with(jdbc, List.of());
    }

    /** One webhook, {@code name}, subscribed to every event type. */
    public static Outbox subscribed(Jdbc jdbc, String name) {
        return with(jdbc, List.of(new Webhook(name, URI.create("http://127.0.0.1:9/" + name), EnumSet.allOf(EventType.class),
                Optional.empty(), 1, Duration.ofSeconds(1), Duration.ofSeconds(1))));
    }

    private static Outbox with(Jdbc jdbc, List<Webhook> hooks) {
        Webhooks webhooks = new Webhooks();
        webhooks.use(hooks);
        Outbox outbox = new Outbox();
        outbox.jdbc = jdbc;
        outbox.webhooks = webhooks;
        return outbox;
    }
}
