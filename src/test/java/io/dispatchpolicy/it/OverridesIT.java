package io.dispatchpolicy.it;

import io.dispatchpolicy.console.OverrideChange;
import io.dispatchpolicy.console.OverrideRefused;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.audit.ActionRefused;
import io.dispatchpolicy.console.audit.AuditEntry;
import io.dispatchpolicy.console.audit.AuditLog;
import io.dispatchpolicy.console.audit.AuditQuery;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.OverrideView;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Operators' per-partition overrides (issue 33, ADR 0025): a gate parameter for one key applies from the next
 * tick iteration and ends by itself at its time; a lane's weight and minimum; bad values refused with the field
 * named and nothing changed; each set and clear audited once; the JSON API does the same.
 */
class OverridesIT extends EngineTest {

    @Inject
    PartitionControl partitions;

    @Inject
    Monitoring monitoring;

    @Inject
    AuditLog audit;

    @jakarta.annotation.Resource(lookup = "java:comp/DefaultManagedExecutorService")
    jakarta.enterprise.concurrent.ManagedExecutorService executor;

    private static OverrideChange max(double value, Instant until) {
        return new OverrideChange("gate", "concurrency", "max", value, until);
    }

    private List<OverrideView> overrides(long partition) {
        return monitoring.partition(partition).orElseThrow().overrides();
    }

    private List<AuditEntry> audited(long partition) {
        return audit.find(new AuditQuery(null, "PARTITION_OVERRIDE", "partition", Long.toString(partition), 100));
    }

    @Test
    void aRaisedCapAppliesFromTheNextIterationAndEndsByItselfAtItsTime() {
        stage("it-cap3", "ov-raise", 10, "sleepMs", "1");
        long partition = partitionId("it-cap3", "ov-raise");
        occupySlots("it-cap3", "ov-raise", 3);
        Instant until = Instant.now().plusSeconds(4).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        try {
            assertThat(ticks.iterate().admitted()).as("the policy's cap of 3 is full").isZero();

            String said = partitions.setOverride(partition, max(5, until), Operators.OPERATOR);
            assertThat(said).isEqualTo("gate concurrency max 5 until " + until);
            assertThat(ticks.iterate().admitted()).as("5 - 3 occupied").isEqualTo(2);
            assertThat(overrides(partition)).singleElement().satisfies(o -> {
                assertThat(o.value()).isEqualTo("5");
                assertThat(o.policyValue()).isEqualTo("3");
                assertThat(o.until()).isEqualTo(until);
                assertThat(o.by()).isEqualTo("it-operator");
            });
            assertThat(monitoring.partition(partition).orElseThrow().gates())
                    .anySatisfy(g -> assertThat(g.settings()).startsWith("concurrency max 5"));

            // the two admitted jobs end; at its time the override ends with no one touching it
            await().atMost(Duration.ofSeconds(30)).until(() -> db.count(
                    "SELECT count(*) FROM dispatch.inflight_jobs WHERE partition_id = ? AND execution_id > 0", partition) == 0);
            await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(until.plusMillis(200)));
            assertThat(overrides(partition)).isEmpty();
            db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE id = ?", partition);
            assertThat(ticks.iterate().admitted()).as("back to the policy's cap of 3, all occupied").isZero();
            assertThat(admitted("it-cap3", "ov-raise")).isEqualTo(2);
        } finally {
            freeSlots("it-cap3", "ov-raise");
        }
        assertThat(audited(partition)).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("it-operator");
            assertThat(e.before()).isEqualTo("gate concurrency max: the policy's value");
            assertThat(e.after()).isEqualTo("gate concurrency max 5 until " + until);
            assertThat(e.outcome()).isEqualTo("done");
        });
    }

    @Test
    void aLoweredCapHoldsUntilClearedAndTheClearIsAudited() {
        stage("it-cap3", "ov-lower", 6, "sleepMs", "1");
        long partition = partitionId("it-cap3", "ov-lower");
        occupySlots("it-cap3", "ov-lower", 1);
        try {
            partitions.setOverride(partition, max(1, null), Operators.OPERATOR);
            assertThat(ticks.iterate().admitted()).as("capped at 1 for now, 1 occupied").isZero();
            assertThat(overrides(partition)).singleElement().satisfies(o -> assertThat(o.until()).isNull());

            assertThat(partitions.clearOverride(partition, "gate", "concurrency", "max", Operators.OPERATOR)).isTrue();
            assertThat(partitions.clearOverride(partition, "gate", "concurrency", "max", Operators.OPERATOR)).isFalse();
            assertThat(ticks.iterate().admitted()).as("the policy's 3, 1 occupied").isEqualTo(2);
        } finally {
            freeSlots("it-cap3", "ov-lower");
        }
        assertThat(audited(partition)).extracting(AuditEntry::after).containsExactly(
                "gate concurrency max: none was in force",
                "gate concurrency max: cleared, the policy's value applies",
                "gate concurrency max 1 until cleared");
        assertThat(audited(partition).get(1).before()).startsWith("gate concurrency max 1 (override by it-operator)");
    }

    /** Operators setting different parameters of one key at once: each write keeps the others' (no lost update). */
    @Test
    void concurrentOverridesOfOneKeyLoseNothing() throws Exception {
        stage("it-cap3", "ov-race", 1, "sleepMs", "1");
        long partition = partitionId("it-cap3", "ov-race");
        int rounds = 15;
        java.util.List<java.util.concurrent.Future<?>> writers = new java.util.ArrayList<>();
        for (String param : List.of("max", "full-backoff")) {
            writers.add(executor.submit(() -> {
                for (int i = 1; i <= rounds; i++) {
                    partitions.setOverride(partition, new OverrideChange("gate", "concurrency", param, (double) i, null),
                            Operators.OPERATOR);
                }
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> w : writers) {
            w.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(overrides(partition)).extracting(OverrideView::param, OverrideView::value).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("max", "15"), org.assertj.core.groups.Tuple.tuple("full-backoff", "15"));
        assertThat(audited(partition)).hasSize(2 * rounds).extracting(AuditEntry::outcome).containsOnly("done");
        partitions.clearOverride(partition, "gate", "concurrency", "max", Operators.OPERATOR);
        partitions.clearOverride(partition, "gate", "concurrency", "full-backoff", Operators.OPERATOR);
    }

    @Test
    void badValuesAreRefusedWithTheFieldNamedAndNothingChanges() {
        stage("it-cap3", "ov-bad", 1, "sleepMs", "1");
        long partition = partitionId("it-cap3", "ov-bad");
        partitions.setOverride(partition, max(4, null), Operators.OPERATOR);

        assertRefused(partition, max(-1, null), "value", "'max' must be >= 0, was -1");
        assertRefused(partition, max(2.5, null), "value", "'max' counts jobs: a whole number, was 2.5");
        assertRefused(partition, max(Double.NaN, null), "value", "Value must be a finite number");
        assertRefused(partition, max(2, Instant.now().minusSeconds(5)), "until", "Until must be in the future");
        assertRefused(partition, new OverrideChange("gate", "throttle", "rate", 2.0, null), "scope",
                "Policy 'it-cap3' has no gate 'throttle'; its gates are [concurrency]");
        assertRefused(partition, new OverrideChange("gate", "concurrency", "rate", 2.0, null), "param",
                "Gate 'concurrency' (concurrency) has no parameter 'rate'; its parameters are [max, full-backoff]");
        assertRefused(partition, new OverrideChange("gate", "concurrency", "full-backoff", 0.0, null), "value",
                "Policy 'it-cap3' gate 'concurrency' parameter 'full-backoff' must be > 0, was 0.0");
        assertRefused(partition, new OverrideChange("lane", "a", "weight", 2.0, null), "scope",
                "This partition is in no lane: policy 'it-cap3' has no lanes");
        assertRefused(partition, new OverrideChange("knob", "concurrency", "max", 2.0, null), "kind",
                "Kind must be 'gate' or 'lane', was 'knob'");
        assertThatThrownBy(() -> partitions.setOverride(partition, max(9, null), Operators.VIEWER))
                .isInstanceOf(ActionRefused.class);

        assertThat(overrides(partition)).singleElement().satisfies(o -> assertThat(o.value()).isEqualTo("4"));
        List<AuditEntry> rows = audited(partition);
        assertThat(rows).hasSize(11);
        assertThat(rows).extracting(AuditEntry::outcome).containsExactly("refused", "failed", "failed", "failed", "failed",
                "failed", "failed", "failed", "failed", "failed", "done");
        partitions.clearOverride(partition, "gate", "concurrency", "max", Operators.OPERATOR);
    }

    private void assertRefused(long partition, OverrideChange change, String field, String message) {
        assertThatThrownBy(() -> partitions.setOverride(partition, change, Operators.OPERATOR))
                .isInstanceOfSatisfying(OverrideRefused.class, r -> {
                    assertThat(r.field()).isEqualTo(field);
                    assertThat(r.getMessage()).startsWith(message);
                });
    }

    @Test
    void aLanesWeightAndMinimumAreOverriddenForEveryPartitionOfTheLane() {
        stage("it-lanes-min", "ov-lane", 1, new io.dispatchpolicy.api.SubmitOption[] {io.dispatchpolicy.api.SubmitOption.lane("a")},
                "sleepMs", "3000");
        long partition = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = 'it-lanes-min' AND partition_key = 'ov-lane' AND lane = 'a'");
        try {
            partitions.setOverride(partition, new OverrideChange("lane", "a", "min", 6.0, null), Operators.OPERATOR);
            partitions.setOverride(partition, new OverrideChange("lane", "a", "weight", 4.0, null), Operators.OPERATOR);
            assertThat(overrides(partition)).extracting(OverrideView::param, OverrideView::value, OverrideView::policyValue)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("min", "6", "3"),
                            org.assertj.core.groups.Tuple.tuple("weight", "4", "1"));
            assertRefused(partition, new OverrideChange("lane", "b", "min", 1.0, null), "scope",
                    "This partition is in lane 'a', not 'b'");
            assertRefused(partition, new OverrideChange("lane", "a", "weight", 0.0, null), "value",
                    "A lane's weight must be >= 1, was 0");
            assertRefused(partition, new OverrideChange("lane", "a", "min", 1.5, null), "value",
                    "A lane's min is a whole number, was 1.5");
            assertRefused(partition, new OverrideChange("lane", "a", "share", 1.0, null), "param",
                    "A lane's parameter is 'weight' or 'min', was 'share'");

            // applied by the tick: with the capacity of 10 free, lane a's minimum of 6 -> 10 takes every slot
            // (the policy's 3 and weight 1 : 9 would give a about 4); jobs of 3 s keep the slots for the iteration
            partitions.setOverride(partition, new OverrideChange("lane", "a", "min", 10.0, null), Operators.OPERATOR);
            await().atMost(Duration.ofSeconds(90)).until(() -> db.count(
                    "SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = 'it-lanes-min'") == 0);
            long since = db.count("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint"); // ids are cached per connection
            stage("it-lanes-min", "ov-lane-a", 20, new io.dispatchpolicy.api.SubmitOption[] {io.dispatchpolicy.api.SubmitOption.lane("a")}, "sleepMs", "3000");
            stage("it-lanes-min", "ov-lane-b", 20, new io.dispatchpolicy.api.SubmitOption[] {io.dispatchpolicy.api.SubmitOption.lane("b")}, "sleepMs", "3000");
            ticks.iterate();
            assertThat(db.strings("SELECT p.lane || ' ' || count(*) FROM dispatch.admissions a JOIN dispatch.partitions p "
                    + "ON p.id = a.partition_id WHERE p.policy_name = 'it-lanes-min' AND a.admitted_at > to_timestamp(? / 1000.0) GROUP BY p.lane",
                    since))
                    .containsExactly("a 10");
        } finally {
            partitions.clearOverride(partition, "lane", "a", "min", Operators.OPERATOR);
            partitions.clearOverride(partition, "lane", "a", "weight", Operators.OPERATOR);
        }
        assertThat(overrides(partition)).isEmpty();
        assertThat(db.strings("SELECT coalesce(lane_overrides::text, 'none') FROM dispatch.policies WHERE name = 'it-lanes-min'"))
                .containsExactly("none");
    }

    @Test
    void theJsonApiSetsReadsAndClearsOverridesAsTheConsoleDoes() {
        stage("it-cap3", "ov-api", 1, "sleepMs", "1");
        long partition = partitionId("it-cap3", "ov-api");
        String path = "api/partitions/" + partition + "/overrides";

        HttpResponse<String> set = post(path, "{\"kind\":\"gate\",\"scope\":\"concurrency\",\"param\":\"max\",\"value\":7,\"until\":\"+2h\"}",
                "operator:operator-secret");
        assertThat(set.statusCode()).isEqualTo(200);
        assertThat(set.body()).startsWith("{\"override\":\"gate concurrency max 7 until ");
        HttpResponse<String> read = ConsoleHttp.get(path, "viewer:viewer-secret");
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).contains("\"param\":\"max\"").contains("\"value\":\"7\"").contains("\"policyValue\":\"3\"")
                .contains("\"by\":\"operator\"");

        HttpResponse<String> bad = post(path, "{\"kind\":\"gate\",\"scope\":\"concurrency\",\"param\":\"max\",\"value\":-2}",
                "operator:operator-secret");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"field\":\"value\"").contains("must be >= 0");
        HttpResponse<String> badTime = post(path, "{\"kind\":\"gate\",\"scope\":\"concurrency\",\"param\":\"max\",\"value\":2,\"until\":\"tomorrow\"}",
                "operator:operator-secret");
        assertThat(badTime.statusCode()).isEqualTo(400);
        assertThat(badTime.body()).contains("\"field\":\"until\"");
        assertThat(post(path, "{\"kind\":\"gate\",\"scope\":\"concurrency\",\"param\":\"max\",\"value\":2}", "viewer:viewer-secret")
                .statusCode()).isEqualTo(403);

        HttpResponse<String> cleared = ConsoleHttp.send(HttpRequest.newBuilder(URI.create(ConsoleHttp.CONSOLE + path + "/gate/concurrency/max"))
                .DELETE().header("Authorization", ConsoleHttp.basic("operator:operator-secret")));
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(cleared.body()).isEqualTo("{\"cleared\":true}");
        assertThat(overrides(partition)).isEmpty();
        // newest first; the unreadable time never reached the engine
        assertThat(audited(partition)).extracting(AuditEntry::outcome).containsExactly("done", "refused", "failed", "done");
    }

    private static HttpResponse<String> post(String path, String json, String credentials) {
        return ConsoleHttp.send(HttpRequest.newBuilder(URI.create(ConsoleHttp.CONSOLE + path))
                .POST(HttpRequest.BodyPublishers.ofString(json)).header("Content-Type", "application/json")
                .header("Authorization", ConsoleHttp.basic(credentials)));
    }
}
