package io.dispatchpolicy.notify;

import java.time.Instant;

/**
 * A webhook's deliveries as the API and the console show them.
 *
 * @param pending       not yet delivered (due, waiting for a retry, or out now)
 * @param delivered24h  delivered in the last 24 hours
 * @param failed24h     given up in the last 24 hours (every attempt failed, or the webhook is no longer declared)
 * @param lastDelivered the last delivery's time, or null
 * @param lastError     the most recent attempt's error, or null
 */
public record DeliverySummary(String webhook, long pending, long delivered24h, long failed24h, Instant lastDelivered,
                              String lastError) {
}
