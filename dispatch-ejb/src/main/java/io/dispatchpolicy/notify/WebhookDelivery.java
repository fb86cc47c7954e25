package io.dispatchpolicy.notify;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.observe.EngineMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Logger;

/**
 * Sends the webhook deliveries: a maintenance task of every node (ADR 0041). A pass never waits on a receiver —
 * it records the attempts that ended since the last pass, then claims due rows (up to {@link #MAX_IN_FLIGHT} out at
 * once per node) and starts their POSTs asynchronously — so a slow or dead receiver holds up neither the node's
 * other maintenance (its heartbeat) nor, since events are only rows, any admission.
 *
 * <p>A 2xx answer delivers; anything else (another status, a refused connection, the webhook's timeout) is a failed
 * attempt, retried after the webhook's backoff, doubled each time, until its {@code max-attempts}. Each request
 * carries one event: {@code {"id", "type", "occurredAt", "webhook", "delivery", "attempt", "data"}}; headers
 * {@code Dispatch-Event}, {@code Dispatch-Event-Id}, {@code Dispatch-Delivery}, and {@code Dispatch-Signature} when
 * the webhook has a secret.
 */
@ApplicationScoped
public class WebhookDelivery {

    private static final Logger LOG = Logger.getLogger(WebhookDelivery.class.getName());

    /** How often a pass runs: an event is sent within about this much after its transaction commits. */
    public static final long EVERY_MS = 500;
    /** Attempts out at once from one node. */
    static final int MAX_IN_FLIGHT = 16;
    /** A claimed attempt's lease beyond its webhook's timeout, after which another pass (any node) may send it again. */
    static final Duration LEASE_MARGIN = Duration.ofSeconds(30);
    /** How often ended rows are swept and orphaned ones ended. */
    static final long SWEEP_EVERY_MS = 60_000;

    @Inject
    Webhooks webhooks;

    @Inject
    DeliveryRepository repository;

    @Inject
    EngineMetrics metrics;

    @Inject
    DispatchSettings settings;

    private final Map<Long, Attempt> out = new LinkedHashMap<>();
    /** {@link #LEASE_MARGIN}, shorter in tests of a lease that ends. */
    Duration leaseMargin = LEASE_MARGIN;
    private volatile HttpClient client;
    private long nextSweep;

    /** One pass (the maintenance thread's only: not thread-safe). */
    public void pass() {
        webhooks.refresh();
        settle();
        List<Webhook> declared = webhooks.all();
        List<String> names = declared.stream().map(Webhook::name).toList();
        long now = System.currentTimeMillis();
        if (now >= nextSweep) {
            nextSweep = now + SWEEP_EVERY_MS;
            int orphaned = repository.orphaned(names);
            if (orphaned > 0) {
                LOG.warning(() -> orphaned + " webhook deliveries of webhooks no longer declared ended as failed");
            }
            repository.sweep(settings.deadRetention());
        }
        int room = MAX_IN_FLIGHT - out.size();
        if (declared.isEmpty() || room <= 0) {
            return;
        }
        Duration longest = declared.stream().map(Webhook::timeout).max(Duration::compareTo).orElseThrow();
        for (DeliveryRepository.Delivery d : repository.claim(names, room, longest.plus(leaseMargin))) {
            Optional<Webhook> hook = webhooks.named(d.webhook());
            if (hook.isPresent()) {
                out.put(d.id(), new Attempt(d, hook.get(), send(d, hook.get())));
            }
        }
    }

    /** Records the attempts that have ended; one whose record fails (the database) is recorded at the next pass. */
    private void settle() {
        for (Iterator<Attempt> it = out.values().iterator(); it.hasNext(); ) {
            Attempt a = it.next();
            if (!a.answer.isDone()) {
                continue;
            }
            DeliveryRepository.Delivery d = a.delivery;
            Integer status = null;
            String error;
            try {
                status = a.answer.join().statusCode();
                error = status / 100 == 2 ? null : "HTTP " + status;
            } catch (CompletionException | java.util.concurrent.CancellationException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                error = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
            }
            if (error == null) {
                repository.delivered(d.id(), status);
                metrics.webhook(d.webhook(), "delivered");
            } else {
                boolean giveUp = d.attempt() >= a.hook.maxAttempts();
                Duration backoff = a.hook.backoffAfter(d.attempt());
                repository.failed(d.id(), status, error, backoff, giveUp);
                metrics.webhook(d.webhook(), giveUp ? "failed" : "retried");
                String why = error;
                if (giveUp) {
                    LOG.warning(() -> "Webhook " + d.webhook() + ": event " + d.eventId() + " given up after " + d.attempt()
                            + " attempts; the last: " + why);
                } else {
                    LOG.fine(() -> "Webhook " + d.webhook() + ": attempt " + d.attempt() + " of " + d.eventId() + " failed (" + why
                            + "); again in " + backoff.toMillis() + " ms");
                }
            }
            it.remove();
        }
    }

    private CompletableFuture<HttpResponse<Void>> send(DeliveryRepository.Delivery d, Webhook hook) {
        String body = body(d);
        HttpRequest.Builder request = HttpRequest.newBuilder(hook.url()).timeout(hook.timeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", "dispatch-policy-webhook")
                .header("Dispatch-Event", d.eventType())
                .header("Dispatch-Event-Id", d.eventId())
                .header("Dispatch-Delivery", String.valueOf(d.id()))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        hook.secret().ifPresent(secret -> request.header("Dispatch-Signature", signature(secret, System.currentTimeMillis() / 1000, body)));
        try {
            return client().sendAsync(request.build(), HttpResponse.BodyHandlers.discarding());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The event as the receiver reads it. */
    static String body(DeliveryRepository.Delivery d) {
        return JsonCodec.JSON.createObjectBuilder()
                .add("id", d.eventId())
                .add("type", d.eventType())
                .add("occurredAt", d.createdAt().toString())
                .add("webhook", d.webhook())
                .add("delivery", d.id())
                .add("attempt", d.attempt())
                .add("data", JsonCodec.parse(d.payload()))
                .build().toString();
    }

    /**
     * {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>}: a receiver recomputes it to know
     * the sender, and refuses an old {@code t} to refuse a replay.
     */
    public static String signature(String secret, long unixSeconds, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] sig = mac.doFinal((unixSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(sig);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private HttpClient client() {
        HttpClient c = client;
        if (c == null) {
            // redirects not followed: a 3xx is a failed attempt, so an event is never posted where its webhook does not say
            c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
            client = c;
        }
        return c;
    }

    /** The attempts out now (tests). */
    int out() {
        return out.size();
    }

    private record Attempt(DeliveryRepository.Delivery delivery, Webhook hook, CompletableFuture<HttpResponse<Void>> answer) {
    }
}
