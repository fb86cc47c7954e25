package io.dispatchpolicy.console.monitoring;

import java.time.Instant;
import java.util.List;

/**
 * A webhook as the API and the console show it (ADR 0041): its declaration (never its secret) and its deliveries.
 * A webhook no longer declared but with deliveries kept shows with a null {@code url}.
 *
 * @param url           where it posts, scheme, host and port only (a path or query may hold a credential), or null when
 *                      it is no longer declared
 * @param events        the event types it is told of
 * @param signed        whether it has a secret (each POST then carries {@code Dispatch-Signature})
 * @param pending       deliveries not yet made (due, waiting for a retry, or out now)
 * @param delivered24h  delivered in the last 24 hours
 * @param failed24h     given up in the last 24 hours
 * @param lastDelivered the last delivery, or null
 * @param lastError     the most recent failed attempt's error, or null
 */
public record WebhookView(String name, String url, List<String> events, boolean signed, int maxAttempts, long pending,
                          long delivered24h, long failed24h, Instant lastDelivered, String lastError) implements java.io.Serializable {
}
