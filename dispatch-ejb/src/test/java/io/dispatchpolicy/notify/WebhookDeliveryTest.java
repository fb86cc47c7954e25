package io.dispatchpolicy.notify;

import com.sun.net.httpserver.HttpServer;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import io.dispatchpolicy.observe.EngineMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The webhook delivery (ADR 0041) against the engine's test database and a local HTTP server: a failing receiver is
 * retried after the backoff, doubled, then delivered once; one that never answers 2xx is given up after its attempts;
 * a slow one times out as a failed attempt without holding the pass; two nodes passing at once never send one event
 * twice; the outbox writes nothing when no webhook is subscribed; deliveries of a webhook no longer declared end.
 */
class WebhookDeliveryTest {

    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final Webhooks webhooks = new Webhooks();
    private HttpServer server;
    private final List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> byEvent = new ConcurrentHashMap<>();
    private volatile IntSupplier status = () -> 204;
    private volatile long answerAfterMs;

    @BeforeEach
    void aReceiver() throws Exception {
        db.update("DELETE FROM dispatch.webhook_deliveries WHERE webhook LIKE 't-%'");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", exchange -> {
            arrivals.add(System.nanoTime());
            byEvent.computeIfAbsent(exchange.getRequestHeaders().getFirst("Dispatch-Event-Id"), k -> new AtomicInteger()).incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            if (answerAfterMs > 0) {
                try {
                    Thread.sleep(answerAfterMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(status.getAsInt(), -1);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    @AfterEach
    void stopIt() {
        server.stop(0);
        db.update("DELETE FROM dispatch.webhook_deliveries WHERE webhook LIKE 't-%'");
    }

    @Test
    void aFailingReceiverIsRetriedAfterADoublingBackoffAndTheEventDeliveredOnce() {
        AtomicInteger calls = new AtomicInteger();
        status = () -> calls.incrementAndGet() <= 2 ? 503 : 200;
        webhooks.use(List.of(hook("t-retry", 5, 300, 2_000)));
        record(EventType.JOB_DEAD, "job.dead:1:2");
        WebhookDelivery delivery = delivery();

        passUntil(delivery, () -> state("job.dead:1:2").equals("delivered 3 200"));
        assertThat(byEvent.get("job.dead:1:2").get()).isEqualTo(3);
        long firstGap = TimeUnit.NANOSECONDS.toMillis(arrivals.get(1) - arrivals.get(0));
        long secondGap = TimeUnit.NANOSECONDS.toMillis(arrivals.get(2) - arrivals.get(1));
        assertThat(firstGap).as("the backoff after the first failure").isGreaterThanOrEqualTo(300);
        assertThat(secondGap).as("doubled after the second").isGreaterThanOrEqualTo(600);
        passesSendNothingMore(delivery, "job.dead:1:2", 3);
    }

    @Test
    void aReceiverThatNeverAcceptsIsGivenUpAfterItsAttemptsAndASlowOneTimesOut() {
        status = () -> 500;
        webhooks.use(List.of(hook("t-down", 3, 50, 2_000)));
        record(EventType.JOB_DEAD, "job.dead:3:4");
        WebhookDelivery delivery = delivery();
        passUntil(delivery, () -> state("job.dead:3:4").equals("failed 3 500"));
        passesSendNothingMore(delivery, "job.dead:3:4", 3);
        assertThat(db.strings("SELECT last_error FROM dispatch.webhook_deliveries WHERE event_id = 'job.dead:3:4'")).containsExactly("HTTP 500");

        status = () -> 204;
        answerAfterMs = 1_500;
        webhooks.use(List.of(hook("t-slow", 1, 50, 300)));
        record(EventType.JOB_DEAD, "job.dead:5:6");
        long start = System.nanoTime();
        delivery.pass();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("a pass does not wait for the receiver").isLessThan(1_000);
        passUntil(delivery, () -> state("job.dead:5:6").startsWith("failed 1 "));
        assertThat(db.strings("SELECT last_error FROM dispatch.webhook_deliveries WHERE event_id = 'job.dead:5:6'"))
                .singleElement().asString().startsWith("HttpTimeoutException");
    }

    @Test
    void twoNodesPassingAtOnceSendEachEventOnce() throws Exception {
        webhooks.use(List.of(hook("t-two", 3, 50, 5_000)));
        int events = 300;
        for (int i = 0; i < events; i++) {
            record(EventType.JOB_EXPIRED, "job.expired:" + i);
        }
        WebhookDelivery[] nodes = {delivery(), delivery()};
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        List<Future<?>> running = new ArrayList<>();
        for (WebhookDelivery node : nodes) {
            running.add(threads.submit(() -> {
                start.await();
                while (!done.get()) {
                    node.pass();
                    Thread.sleep(5);
                }
                return null;
            }));
        }
        start.countDown();
        await().atMost(Duration.ofSeconds(60)).until(() -> db.count("SELECT count(*) FROM dispatch.webhook_deliveries "
                + "WHERE webhook = 't-two' AND state = 'delivered'") == events);
        done.set(true);
        for (Future<?> f : running) {
            f.get(10, TimeUnit.SECONDS);
        }
        threads.shutdown();
        assertThat(byEvent).hasSize(events);
        assertThat(byEvent.values()).allSatisfy(n -> assertThat(n.get()).as("sent once").isEqualTo(1));
        assertThat(db.count("SELECT count(*) FROM dispatch.webhook_deliveries WHERE webhook = 't-two' AND attempts <> 1")).isZero();
    }

    @Test
    void anAttemptOfANodeThatDiedIsSentAgainByAnotherOnceItsLeaseEnds() {
        webhooks.use(List.of(hook("t-lease", 3, 50, 200)));
        record(EventType.JOB_DEAD, "job.dead:10:11");
        answerAfterMs = 600;
        WebhookDelivery dying = delivery();
        dying.leaseMargin = Duration.ofMillis(100);
        dying.pass(); // claims and sends; never passes again, as a node killed with its attempt out
        await().atMost(Duration.ofSeconds(5)).until(() -> byEvent.containsKey("job.dead:10:11"));
        answerAfterMs = 0;
        WebhookDelivery survivor = delivery();
        passUntil(survivor, () -> state("job.dead:10:11").equals("delivered 2 204"));
        assertThat(byEvent.get("job.dead:10:11").get()).as("sent again, at least once").isEqualTo(2);
    }

    @Test
    void theOutboxWritesOnlyForSubscribedWebhooksAndAnUndeclaredOnesDeliveriesEnd() {
        webhooks.use(List.of(new Webhook("t-dead-only", URI.create(url()), EnumSet.of(EventType.JOB_DEAD), Optional.empty(), 3,
                Duration.ofMillis(50), Duration.ofSeconds(2))));
        record(EventType.JOB_EXPIRED, "job.expired:none");
        assertThat(db.count("SELECT count(*) FROM dispatch.webhook_deliveries WHERE webhook LIKE 't-%'")).as("no webhook subscribed to expiries").isZero();
        record(EventType.JOB_DEAD, "job.dead:7:8");
        assertThat(db.strings("SELECT webhook || ' ' || event_type || ' ' || (payload->>'n') FROM dispatch.webhook_deliveries WHERE webhook LIKE 't-%'"))
                .containsExactly("t-dead-only job.dead 1");

        db.update("INSERT INTO dispatch.webhook_deliveries (webhook, event_type, event_id, payload, next_attempt_at) "
                + "VALUES ('t-gone', 'job.dead', 'job.dead:9:9', '{}', now() - interval '2 minutes')");
        WebhookDelivery delivery = delivery();
        delivery.pass();
        assertThat(state("job.dead:9:9")).isEqualTo("failed 0 null");
        assertThat(db.strings("SELECT last_error FROM dispatch.webhook_deliveries WHERE event_id = 'job.dead:9:9'"))
                .containsExactly("webhook t-gone is no longer declared");
        passUntil(delivery, () -> state("job.dead:7:8").equals("delivered 1 204"));
    }

    @Test
    void theBackoffDoublesUpToAnHour() {
        Webhook w = hook("t", 10, 5_000, 1_000);
        assertThat(w.backoffAfter(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(w.backoffAfter(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(w.backoffAfter(4)).isEqualTo(Duration.ofSeconds(40));
        assertThat(w.backoffAfter(12)).isEqualTo(Duration.ofHours(1));
        assertThat(w.backoffAfter(100)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void theSignatureIsTheHmacOfTimeAndBody() {
        // the expected value computed apart: printf '1.what do ya want for nothing?' | openssl dgst -sha256 -hmac Jefe
        assertThat(WebhookDelivery.signature("Jefe", 1, "what do ya want for nothing?"))
                .isEqualTo("t=1,v1=a9049465ce89cfb8e9aac62333abda66f80e3403f51f57f6bae3c3a4485eca38");
    }

    private Webhook hook(String name, int attempts, long backoffMs, long timeoutMs) {
        return new Webhook(name, URI.create(url()), EnumSet.allOf(EventType.class), Optional.of("s"), attempts, Duration.ofMillis(backoffMs),
                Duration.ofMillis(timeoutMs));
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    private void record(EventType type, String id) {
        Outbox outbox = new Outbox();
        outbox.jdbc = jdbc;
        outbox.webhooks = webhooks;
        outbox.record(type, id, Map.of("n", 1));
    }

    private WebhookDelivery delivery() {
        WebhookDelivery d = new WebhookDelivery();
        d.webhooks = new Webhooks() {
            @Override
            public void refresh() {
                // the test's webhooks, not the settings
            }

            @Override
            public List<Webhook> all() {
                return webhooks.all();
            }

            @Override
            public Optional<Webhook> named(String name) {
                return webhooks.named(name);
            }
        };
        DeliveryRepository repository = new DeliveryRepository();
        repository.jdbc = jdbc;
        d.repository = repository;
        d.metrics = new EngineMetrics();
        d.settings = new DispatchSettings() {
            @Override
            public Duration deadRetention() {
                return Duration.ofDays(7);
            }
        };
        return d;
    }

    private String state(String eventId) {
        List<String> s = db.strings("SELECT state || ' ' || attempts || ' ' || coalesce(last_status::text, 'null') "
                + "FROM dispatch.webhook_deliveries WHERE event_id = ?", eventId);
        return s.isEmpty() ? "none" : s.get(0);
    }

    private static void passUntil(WebhookDelivery delivery, java.util.concurrent.Callable<Boolean> condition) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> {
            delivery.pass();
            return condition.call();
        });
    }

    /** Passes for half a second, the receiver's count of {@code eventId} staying {@code count} all along. */
    private void passesSendNothingMore(WebhookDelivery delivery, String eventId, int count) {
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> {
            delivery.pass();
            return byEvent.get(eventId).get() == count;
        });
    }
}
