package io.dispatchpolicy.notify;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A declared webhook ({@code dispatch.webhook.<name>.*}, the guide, "Webhooks").
 *
 * @param name        as the settings, the metrics and the deliveries name it
 * @param url         http or https; each event is one POST to it
 * @param events      what it is told of
 * @param secret      when present, each POST carries {@code Dispatch-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">}
 * @param maxAttempts attempts of one event before it is given up as failed
 * @param backoff     the wait after the first failed attempt; it doubles after each, up to {@link #MAX_BACKOFF}
 * @param timeout     of one attempt (connection and answer): slower counts as failed
 */
public record Webhook(String name, URI url, Set<EventType> events, Optional<String> secret, int maxAttempts, Duration backoff,
                      Duration timeout) {

    /** The longest wait between two attempts. */
    public static final Duration MAX_BACKOFF = Duration.ofHours(1);

    /** The wait after failed attempt number {@code attempt} (1 = the first). */
    public Duration backoffAfter(int attempt) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        Duration wait = backoff.multipliedBy(1L << Math.min(doublings, 20));
        return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
    }

    @Override
    public String toString() {
        // never the secret: this is logged
        return "webhook " + name + " (" + url + ", " + events.size() + " event types)";
    }
}
