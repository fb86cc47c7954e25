package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.WebhookView;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.notify.Webhooks;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The webhook notifier (issue 37, deliverable 3; ADR 0041) on the deployed engine, against a receiver in the test EAR:
 * a dead job, an expired job and an operator's pause each reach a webhook subscribed to them, signed; a receiver that
 * fails twice gets the same event a third time and it is delivered once; one that always fails is given up after its
 * attempts; the API shows both without their paths; a bad webhook setting written live is refused and the webhooks
 * stay as they were.
 */
class WebhooksIT extends EngineTest {

    private static final String OK = "http://localhost:8080/it-submit/webhook/ok";
    private static final String DOWN = "http://localhost:8080/it-submit/webhook/down";
    private static final String SECRET = "it-webhook-secret";

    @Inject
    Monitoring monitoring;

    @Inject
    Webhooks webhooks;

    @Inject
    PartitionControl partitions;

    @BeforeEach
    void anEmptyInbox() {
        WebhookInbox.clear();
    }

    @Test
    void eventsReachTheirWebhooksSignedThroughFailuresAndAReceiverThatNeverAnswersIsGivenUp() throws Exception {
        set("dispatch.webhook.it-hook.url", OK);
        set("dispatch.webhook.it-hook.events", "job.dead, job.expired, partition.paused");
        set("dispatch.webhook.it-hook.secret", SECRET);
        set("dispatch.webhook.it-hook.backoff", "0.2");
        set("dispatch.webhook.it-down.url", DOWN);
        set("dispatch.webhook.it-down.events", "job.dead");
        set("dispatch.webhook.it-down.max-attempts", "2");
        set("dispatch.webhook.it-down.backoff", "0.1");
        await().atMost(Duration.ofSeconds(10)).until(() -> names().containsAll(List.of("it-down", "it-hook")));
        WebhookInbox.failNext(2);

        long dead = stage("it-deadnow", "hooked", 1, "fail", "true")[0];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return dispatch.status(dead).state() == SubmissionStatus.State.DEAD;
        });
        long execution = dispatch.status(dead).executionId().getAsLong();
        String deadId = "job.dead:" + dead + ":" + execution;
        await().atMost(Duration.ofSeconds(30)).until(() -> delivered("/ok", deadId) == 1);
        List<WebhookInbox.Received> tries = received("/ok", deadId);
        assertThat(tries).extracting(WebhookInbox.Received::answered).as("two failed attempts, then the delivery").containsExactly(503, 503, 204);
        assertThat(tries).extracting(r -> r.headers().get("Dispatch-Delivery")).as("one delivery, attempted three times").containsOnly(
                tries.get(0).headers().get("Dispatch-Delivery"));
        for (WebhookInbox.Received r : tries) {
            assertThat(r.headers().get("Dispatch-Event")).isEqualTo("job.dead");
            assertSigned(r);
        }
        JsonObject body = JsonCodec.parse(tries.get(2).body());
        assertThat(body.getString("id")).isEqualTo(deadId);
        assertThat(body.getString("type")).isEqualTo("job.dead");
        assertThat(body.getInt("attempt")).isEqualTo(3);
        assertThat(body.getString("webhook")).isEqualTo("it-hook");
        JsonObject data = body.getJsonObject("data");
        assertThat(data.getJsonNumber("submissionId").longValue()).isEqualTo(dead);
        assertThat(data.getJsonNumber("executionId").longValue()).isEqualTo(execution);
        assertThat(data.getString("policy")).isEqualTo("it-deadnow");
        assertThat(data.getString("error")).contains("failing as asked");
        // the answer is recorded at the delivery's next pass
        await().atMost(Duration.ofSeconds(10)).until(() -> db.strings("SELECT state || ' ' || attempts || ' ' || last_status "
                + "FROM dispatch.webhook_deliveries WHERE webhook = 'it-hook' AND event_id = ?", deadId).equals(List.of("delivered 3 204")));

        // the receiver that always fails: its two attempts, then given up; nothing more is sent
        await().atMost(Duration.ofSeconds(30)).until(() -> db.strings("SELECT state FROM dispatch.webhook_deliveries "
                + "WHERE webhook = 'it-down' AND event_id = ?", deadId).equals(List.of("failed")));
        assertThat(db.strings("SELECT attempts || ' ' || last_status || ' ' || last_error FROM dispatch.webhook_deliveries "
                + "WHERE webhook = 'it-down' AND event_id = ?", deadId)).containsExactly("2 500 HTTP 500");
        assertThat(received("/down", deadId)).hasSize(2).allSatisfy(r -> assertThat(r.headers()).doesNotContainKey("Dispatch-Signature"));

        // an expired job, told to the one webhook subscribed to expiries
        touch("it-deadline");
        stage("it-deadline", "held", 1, "sleepMs", "3000");
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long late = dispatch.submit("it-deadline", Params.of("tenant", "held"), SubmitOption.expireAfter(Duration.ofMillis(500)));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return dispatch.status(late).state() == SubmissionStatus.State.EXPIRED;
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered("/ok", "job.expired:" + late) == 1);
        JsonObject expired = JsonCodec.parse(received("/ok", "job.expired:" + late).get(0).body()).getJsonObject("data");
        assertThat(expired.getString("policy")).isEqualTo("it-deadline");
        assertThat(expired.getString("partitionKey")).isEqualTo("held");
        assertThat(expired.getString("detail")).startsWith("not admitted by its deadline");

        // an operator's pause
        long partition = partitionId("it-deadline", "held");
        Instant until = Instant.now().plusSeconds(600);
        partitions.pause(partition, until, "maintenance window", Operators.OPERATOR);
        String pausedId = "partition.paused:" + partition + ":" + until.toEpochMilli();
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered("/ok", pausedId) == 1);
        JsonObject paused = JsonCodec.parse(received("/ok", pausedId).get(0).body()).getJsonObject("data");
        assertThat(paused.getString("reason")).isEqualTo("paused by it-operator: maintenance window");
        assertThat(paused.isNull("executionId")).as("no job paused it").isTrue();
        partitions.resume(partition, Operators.OPERATOR);

        assertThat(List.of(deadId, "job.expired:" + late, pausedId)).as("each event delivered once, however often it was tried")
                .allSatisfy(id -> assertThat(delivered("/ok", id)).isEqualTo(1));

        // the API: both webhooks, host only (a path or query may be a credential), with their counts
        var api = ConsoleHttp.get("api/webhooks", "viewer:viewer-secret");
        assertThat(api.statusCode()).isEqualTo(200);
        assertThat(api.body()).doesNotContain("it-submit").doesNotContain(SECRET)
                .contains("\"name\":\"it-down\"").contains("\"name\":\"it-hook\"").contains("\"url\":\"http://localhost:8080/…\"");
        await().atMost(Duration.ofSeconds(10)).until(() -> monitoring.webhooks().stream()
                .filter(w -> w.name().equals("it-hook")).findFirst().orElseThrow().pending() == 0);
        WebhookView hook = monitoring.webhooks().stream().filter(w -> w.name().equals("it-hook")).findFirst().orElseThrow();
        assertThat(hook.signed()).isTrue();
        assertThat(hook.events()).containsExactly("job.dead", "job.expired", "partition.paused");
        assertThat(hook.delivered24h()).isGreaterThanOrEqualTo(3);
        WebhookView down = monitoring.webhooks().stream().filter(w -> w.name().equals("it-down")).findFirst().orElseThrow();
        assertThat(down.failed24h()).isGreaterThanOrEqualTo(1);
        assertThat(down.lastError()).isEqualTo("HTTP 500");
        assertThat(ConsoleHttp.get("api/webhooks", "nobody:wrong").statusCode()).isEqualTo(401);
    }

    @Test
    void aBadWebhookSettingFailsItsValidationAndTheWebhooksStayAsTheyWere() {
        set("dispatch.webhook.it-hook.url", OK);
        await().atMost(Duration.ofSeconds(10)).until(() -> names().contains("it-hook"));

        set("dispatch.webhook.it-bad.url", "ftp://example.com/hook");
        assertThatThrownBy(webhooks::validate).hasMessage("Invalid value 'ftp://example.com/hook' for dispatch.webhook.it-bad.url: "
                + "expected an http or https URL with a host");
        set("dispatch.webhook.it-bad.url", OK);
        set("dispatch.webhook.it-bad.evnets", "job.dead");
        assertThatThrownBy(webhooks::validate).hasMessageStartingWith("Invalid value 'job.dead' for dispatch.webhook.it-bad.evnets: "
                + "expected one of dispatch.webhook.it-bad.[backoff, events, max-attempts, secret, timeout, url] (did you mean events?)");
        System.clearProperty("dispatch.webhook.it-bad.evnets");
        set("dispatch.webhook.it-bad.events", "job.dead, job.finished");
        assertThatThrownBy(webhooks::validate).hasMessageContaining("for dispatch.webhook.it-bad.events: expected '*' or a comma-separated list of "
                + "[job.dead, job.expired, partition.paused, bulk-action.ended]");
        set("dispatch.webhook.it-bad.events", "job.dead");
        set("dispatch.webhook.it-bad.max-attempts", "0");
        assertThatThrownBy(webhooks::validate).hasMessage("Invalid value '0' for dispatch.webhook.it-bad.max-attempts: expected a whole number from 1 to 100");

        webhooks.refresh();
        assertThat(names()).as("the last valid webhooks").contains("it-hook").doesNotContain("it-bad");
    }

    private List<String> names() {
        return monitoring.webhooks().stream().filter(w -> w.url() != null).map(WebhookView::name).toList();
    }

    private static List<WebhookInbox.Received> received(String path, String eventId) {
        return WebhookInbox.all().stream().filter(r -> r.path().endsWith(path) && eventId.equals(r.headers().get("Dispatch-Event-Id"))).toList();
    }

    private static long delivered(String path, String eventId) {
        return received(path, eventId).stream().filter(r -> r.answered() / 100 == 2).count();
    }

    /** The signature as a receiver checks it: HMAC-SHA256 of "t.body" under the shared secret, computed here independently. */
    private static void assertSigned(WebhookInbox.Received r) throws Exception {
        String header = r.headers().get("Dispatch-Signature");
        assertThat(header).matches("t=\\d+,v1=[0-9a-f]{64}");
        String t = header.substring(2, header.indexOf(','));
        assertThat(Math.abs(Long.parseLong(t) - Instant.now().getEpochSecond())).as("signed just now").isLessThan(120);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = HexFormat.of().formatHex(mac.doFinal((t + "." + r.body()).getBytes(StandardCharsets.UTF_8)));
        assertThat(header).endsWith(",v1=" + expected);
    }
}
