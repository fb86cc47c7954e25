/**
 * Webhook notifications (ADR 0041): what the engine tells a shop's own systems without Prometheus. An event
 * — a job buried dead, a job expired at its deadline, a partition paused, a bulk action ended — is recorded by
 * the role it happens in, in that role's transaction ({@link io.dispatchpolicy.notify.Outbox}: one row per
 * subscribed webhook, nothing at all when none is subscribed), so it exists exactly when what it tells of
 * committed. {@link io.dispatchpolicy.notify.WebhookDelivery} sends the rows as a maintenance task of any node:
 * at least once, each POST signed when the webhook has a secret, retried with exponential backoff, never on a
 * thread an admission waits for. The webhooks are settings ({@code dispatch.webhook.<name>.*},
 * {@link io.dispatchpolicy.notify.Webhooks}), read live.
 *
 * <p>Below every role (staging, admission, completion and the console record events here); uses only the
 * configuration, the infrastructure and the metrics.
 */
package io.dispatchpolicy.notify;
