package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.dispatchpolicy.it.ApiCalls.assertProblem;
import static io.dispatchpolicy.it.ApiCalls.json;
import static io.dispatchpolicy.it.ApiCalls.send;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write API (ADR 0038) over HTTP, as a script calls it: each operation with good and bad input (status and
 * body), 401 without an account, 403 without the role, one audit row per call; and the OpenAPI document at
 * {@code /openapi} lists exactly the API's operations. The node's tick is stopped, so what is staged stays staged.
 */
class WriteApiIT extends EngineTest {

    private static final String POLICY = "it-cap3";
    private static final String OPERATOR = "operator:operator-secret";
    private static final String ADMIN = "admin:admin-secret";
    private static final String VIEWER = "viewer:viewer-secret";

    @Inject
    ScheduleControl schedules;

    @Test
    void submitsOneJobOrABulkWithItsOptionsAndAnIdempotencyKeyAnswersTheFirstSubmission() {
        touch(POLICY);
        long auditBefore = db.count("SELECT coalesce(max(id), 0) FROM dispatch.audit_log"); // another class's submissions are not this test's
        HttpResponse<String> one = send("POST", "api/jobs",
                "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-one\",\"sleepMs\":1},\"priority\":7,\"delay\":60}", OPERATOR, null);
        assertThat(one.statusCode()).as(one.body()).isEqualTo(201);
        JsonObject body = json(one);
        long id = body.getJsonArray("jobs").getJsonObject(0).getJsonNumber("id").longValue();
        assertThat(body.getJsonArray("jobs").getJsonObject(0).getString("outcome")).isEqualTo("STAGED");
        assertThat(body.getInt("staged")).isEqualTo(1);
        assertThat(one.headers().firstValue("Location")).hasValue(ConsoleHttp.CONSOLE + "api/jobs/" + id);
        assertThat(dispatch.status(id).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(db.strings("SELECT priority || ' ' || (due_at > now() + interval '50 seconds') || ' ' || submitted_by"
                + " FROM dispatch.staged_jobs WHERE id = ?", id)).containsExactly("7 true operator");

        // a retried call with the same key: the first submission's id, nothing staged
        String keyed = "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-key\"}}";
        HttpResponse<String> first = send("POST", "api/jobs", keyed, OPERATOR, "order-77");
        HttpResponse<String> retried = send("POST", "api/jobs", keyed, OPERATOR, "order-77");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        long firstId = json(first).getJsonArray("jobs").getJsonObject(0).getJsonNumber("id").longValue();
        assertThat(json(retried).getJsonArray("jobs").getJsonObject(0).getJsonNumber("id").longValue()).isEqualTo(firstId);
        assertThat(json(retried).getJsonArray("jobs").getJsonObject(0).getString("outcome")).isEqualTo("DUPLICATE");
        assertThat(stagedFor("wapi-key")).isEqualTo(1);

        // a bulk call: one id per job, in order
        HttpResponse<String> bulk = send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":[{\"tenant\":\"wapi-bulk\",\"n\":1},"
                + "{\"tenant\":\"wapi-bulk\",\"n\":2},{\"tenant\":\"wapi-bulk\",\"n\":3}],\"unique\":{\"key\":\"wapi-bulk\"}}", OPERATOR, null);
        assertThat(bulk.statusCode()).as(bulk.body()).isEqualTo(201);
        assertThat(json(bulk).getInt("staged")).as("one key for the call: one staged").isEqualTo(1);
        assertThat(json(bulk).getInt("duplicate")).isEqualTo(2);
        HttpResponse<String> many = send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":[{\"tenant\":\"wapi-many\"},"
                + "{\"tenant\":\"wapi-many\"},{\"tenant\":\"wapi-many\"}]}", OPERATOR, null);
        assertThat(json(many).getInt("staged")).isEqualTo(3);
        assertThat(stagedFor("wapi-many")).isEqualTo(3);

        assertThat(db.strings("SELECT outcome || ' ' || coalesce(after_value, '') FROM dispatch.audit_log WHERE actor = 'operator' "
                + "AND action = 'JOB_SUBMIT' AND id > ? ORDER BY id", auditBefore))
                .containsExactly("done 1 staged; first " + id, "done 1 staged; first " + firstId, "done 1 duplicate; first " + firstId,
                        "done 2 duplicate, 1 staged; first " + json(bulk).getJsonArray("jobs").getJsonObject(0).getJsonNumber("id").longValue(),
                        "done 3 staged; first " + json(many).getJsonArray("jobs").getJsonObject(0).getJsonNumber("id").longValue());
    }

    @Test
    void aBadSubmissionIsAProblemNamingItsFieldAndStagesNothing() {
        touch(POLICY);
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"},\"priorty\":3}", OPERATOR, null),
                400, "priorty", "Unknown field 'priorty'");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"},\"priority\":\"high\"}", OPERATOR, null),
                400, "priority", "must be a whole number");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"},\"delay\":\"soon\"}", OPERATOR, null),
                400, "delay", "not a duration");
        assertProblem(send("POST", "api/jobs", "{\"parameters\":{\"tenant\":\"wapi-bad\"}}", OPERATOR, null), 400, "job", "job is required");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"wapi-no-such-job\",\"parameters\":{\"tenant\":\"wapi-bad\"}}", OPERATOR, null),
                400, "job", "wapi-no-such-job");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"},\"cost\":0}", OPERATOR, null),
                400, "cost", "at least 1");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"},\"unique\":{\"window\":60}}",
                OPERATOR, null), 400, "unique.key", "unique.key is required");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":{\"nested\":1}}}", OPERATOR, null),
                400, "parameters", "parameters.tenant must be a string");
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":[{\"tenant\":\"wapi-bad\"},{\"tenant\":\"wapi-bad\"}]}",
                OPERATOR, "k"), 400, "Idempotency-Key", "single job");
        assertProblem(send("POST", "api/jobs", "{\"job\":", OPERATOR, null), 400, null, "cannot be read");
        assertThat(stagedFor("wapi-bad")).isZero();

        HttpResponse<String> anonymous = send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"}}", null, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertProblem(send("POST", "api/jobs", "{\"job\":\"it-cap3\",\"parameters\":{\"tenant\":\"wapi-bad\"}}", VIEWER, null),
                403, null, "may submit jobs; viewer has [dispatch-viewer]");
        assertThat(stagedFor("wapi-bad")).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.audit_log WHERE actor = 'viewer' AND action = 'JOB_SUBMIT' AND outcome = 'refused' "
                + "AND at > now() - interval '1 minute'")).isEqualTo(1);
    }

    @Test
    void jobActionsAnswerWhatTheyDidOrWhyNot() {
        long[] ids = stage(POLICY, "wapi-act", 2, "sleepMs", "1");
        assertProblem(send("POST", "api/jobs/" + ids[0] + "/stop", null, OPERATOR, null), 409, null, "has no running execution");
        assertProblem(send("POST", "api/jobs/" + ids[0] + "/restart", null, OPERATOR, null), 409, null, "cannot be restarted");
        assertProblem(send("POST", "api/jobs/" + ids[0] + "/retry", null, OPERATOR, null), 409, null, "is not dead");
        assertProblem(send("POST", "api/jobs/" + ids[0] + "/discard", null, VIEWER, null), 403, null, "may discard jobs");

        HttpResponse<String> discarded = send("POST", "api/jobs/" + ids[0] + "/discard", null, OPERATOR, null);
        assertThat(discarded.statusCode()).as(discarded.body()).isEqualTo(200);
        assertThat(json(discarded).getString("message")).isEqualTo("Staged job " + ids[0] + " discarded.");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", ids[0])).isZero();
        assertThat(dispatch.status(ids[1]).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertProblem(send("POST", "api/jobs/" + ids[0] + "/discard", null, OPERATOR, null), 404, null, "No job " + ids[0]);
        assertProblem(send("POST", "api/jobs/999999999999999/stop", null, OPERATOR, null), 404, null, "No job 999999999999999");
        assertProblem(send("GET", "api/jobs/999999999999999", null, VIEWER, null), 404, null, "No job");
    }

    @Test
    void policiesAndPartitionsArePausedResumedDrainedAndForceAdmitted() {
        stage(POLICY, "wapi-part", 3, "sleepMs", "1");
        long partition = partitionId(POLICY, "wapi-part");
        String at = "api/partitions/" + partition + "/";

        assertProblem(send("POST", at + "pause", "{\"reason\":\"maintenance\"}", OPERATOR, null), 400, "until", "until is required");
        assertProblem(send("POST", at + "pause", "{\"until\":\"+1h\"}", OPERATOR, null), 400, "reason", "a reason");
        assertProblem(send("POST", at + "pause", "{\"until\":\"yesterday\",\"reason\":\"x\"}", OPERATOR, null), 400, "until", "not an instant");
        HttpResponse<String> paused = send("POST", at + "pause", "{\"until\":\"+1h\",\"reason\":\"tenant's API is down\"}", OPERATOR, null);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(db.strings("SELECT pause_reason FROM dispatch.partitions WHERE id = ? AND paused_until > now() + interval '50 minutes'",
                partition)).containsExactly("paused by operator: tenant's API is down");
        assertThat(ticks.iterate().admitted()).as("an iteration while the partition is paused").isZero();
        HttpResponse<String> resumed = send("POST", at + "resume", null, OPERATOR, null);
        assertThat(json(resumed).getBoolean("resumed")).isTrue();
        assertThat(json(send("POST", at + "resume", null, OPERATOR, null)).getBoolean("resumed")).as("a second resume").isFalse();

        HttpResponse<String> admitted = send("POST", at + "admit?count=1", null, OPERATOR, null);
        assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
        assertThat(json(admitted).getInt("admitted")).isEqualTo(1);
        assertProblem(send("POST", at + "admit?count=0", null, OPERATOR, null), 400, "count", "count is 1 to");
        HttpResponse<String> drained = send("POST", at + "drain", null, OPERATOR, null);
        assertThat(json(drained).getInt("drained")).isEqualTo(2);
        assertProblem(send("POST", "api/partitions/999999999/drain", null, OPERATOR, null), 404, null, "does not exist");

        HttpResponse<String> policyPaused = send("POST", "api/policies/" + POLICY + "/pause", null, OPERATOR, null);
        assertThat(policyPaused.body()).isEqualTo("{\"policy\":\"" + POLICY + "\",\"paused\":true}");
        assertThat(db.count("SELECT count(*) FROM dispatch.policies WHERE name = ? AND paused_at IS NOT NULL", POLICY)).isEqualTo(1);
        assertThat(send("POST", "api/policies/" + POLICY + "/resume", null, OPERATOR, null).body())
                .isEqualTo("{\"policy\":\"" + POLICY + "\",\"paused\":false}");
        assertThat(db.count("SELECT count(*) FROM dispatch.policies WHERE name = ? AND paused_at IS NOT NULL", POLICY)).isZero();
        stage(POLICY, "wapi-policy", 2, "sleepMs", "1");
        assertThat(json(send("POST", "api/policies/" + POLICY + "/drain", null, OPERATOR, null)).getInt("drained")).isEqualTo(2);
        assertProblem(send("POST", "api/policies/wapi-no-such-policy/pause", null, OPERATOR, null), 404, null, "No policy named");
        assertProblem(send("POST", "api/policies/" + POLICY + "/pause", null, VIEWER, null), 403, null, "may pause policies");
        assertThat(db.strings("SELECT action || ' ' || outcome FROM dispatch.audit_log WHERE actor = 'operator' AND target = ? "
                + "AND at > now() - interval '1 minute' ORDER BY id", String.valueOf(partition)))
                .containsExactly("PARTITION_PAUSE failed", "PARTITION_PAUSE done", "PARTITION_RESUME done", "PARTITION_RESUME done",
                        "PARTITION_FORCE_ADMIT done", "PARTITION_DRAIN done");
    }

    @Test
    void schedulesAreCreatedReadEditedRunAndDeleted() {
        touch("it-scheduled");
        try {
            String nightly = "{\"name\":\"wapi-nightly\",\"job\":\"it-scheduled\",\"parameters\":{\"tenant\":\"wapi-s\"},"
                    + "\"cron\":\"0 3 * * *\",\"zone\":\"Europe/Paris\",\"deadline\":600}";
            assertProblem(send("POST", "api/schedules", nightly, OPERATOR, null), 403, null, "may create schedules");
            assertProblem(send("POST", "api/schedules", nightly.replace("0 3 * * *", "61 3 * * *"), ADMIN, null), 400, "cron", "cron");
            assertProblem(send("POST", "api/schedules", nightly.replace("Europe/Paris", "Mars/Base"), ADMIN, null), 400, "zone", "zone");
            assertProblem(send("POST", "api/schedules", "{\"name\":\"wapi-x\",\"job\":\"it-scheduled\",\"interval\":5,\"unit\":\"minutes\"}",
                    ADMIN, null), 400, "anchor", "anchor is required");
            HttpResponse<String> created = send("POST", "api/schedules", nightly, ADMIN, null);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(created.headers().firstValue("Location")).hasValue(ConsoleHttp.CONSOLE + "api/schedules/wapi-nightly");
            assertProblem(send("POST", "api/schedules", nightly, ADMIN, null), 409, "name", "exists already");

            JsonObject read = json(send("GET", "api/schedules/wapi-nightly", null, VIEWER, null));
            assertThat(read.getString("cron")).isEqualTo("0 3 * * *");
            assertThat(read.getString("zone")).isEqualTo("Europe/Paris");
            assertThat(read.getInt("deadline")).isEqualTo(600);
            assertThat(read.getString("source")).isEqualTo("console");
            assertThat(read.getJsonArray("nextRuns")).isNotEmpty();

            HttpResponse<String> edited = send("PUT", "api/schedules/wapi-nightly", nightly.replace("0 3 * * *", "30 4 * * *"), ADMIN, null);
            assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
            assertThat(schedules.schedule("wapi-nightly").orElseThrow().definition().cron()).isEqualTo("30 4 * * *");
            assertProblem(send("PUT", "api/schedules/wapi-nightly", nightly.replace("wapi-nightly", "wapi-renamed"), ADMIN, null),
                    400, "name", "is not renamed");

            assertThat(json(send("POST", "api/schedules/wapi-nightly/disable", null, ADMIN, null)).getBoolean("wasEnabled")).isTrue();
            assertThat(schedules.schedule("wapi-nightly").orElseThrow().summary().enabled()).isFalse();
            assertThat(json(send("POST", "api/schedules/wapi-nightly/enable", null, ADMIN, null)).getBoolean("staged")).isTrue();
            JsonObject skipped = json(send("POST", "api/schedules/wapi-nightly/skip", null, ADMIN, null));
            assertThat(skipped.getString("skipped")).endsWith(":30:00Z");
            HttpResponse<String> run = send("POST", "api/schedules/wapi-nightly/run", null, OPERATOR, null);
            assertThat(run.statusCode()).as(run.body()).isEqualTo(201);
            assertThat(dispatch.status(json(run).getJsonNumber("id").longValue()).state()).isEqualTo(SubmissionStatus.State.STAGED);

            assertThat(send("DELETE", "api/schedules/wapi-nightly", null, ADMIN, null).statusCode()).isEqualTo(200);
            assertProblem(send("GET", "api/schedules/wapi-nightly", null, VIEWER, null), 404, null, "no schedule named wapi-nightly");
            assertThat(db.strings("SELECT action FROM dispatch.audit_log WHERE target = 'wapi-nightly' AND outcome = 'done' ORDER BY id"))
                    .containsExactly("SCHEDULE_CREATE", "SCHEDULE_EDIT", "SCHEDULE_DISABLE", "SCHEDULE_ENABLE", "SCHEDULE_SKIP",
                            "SCHEDULE_RUN_NOW", "SCHEDULE_DELETE");
        } finally {
            deleteSchedules(schedules, List.of("wapi-nightly", "wapi-x"));
        }
    }

    /** Every operation of the API, as the OpenAPI document must list it: a new endpoint fails here until it is added. */
    static final Set<String> OPERATIONS = new TreeSet<>(List.of(
            "GET /api/summary", "GET /api/policies", "GET /api/policies/{name}/history", "POST /api/policies/{name}/pause",
            "POST /api/policies/{name}/resume", "POST /api/policies/{name}/drain",
            "GET /api/partitions/{id}", "GET /api/partitions/{id}/history", "POST /api/partitions/{id}/admit",
            "POST /api/partitions/{id}/drain", "POST /api/partitions/{id}/pause", "POST /api/partitions/{id}/resume",
            "GET /api/partitions/{id}/overrides", "POST /api/partitions/{id}/overrides",
            "DELETE /api/partitions/{id}/overrides/{kind}/{scope}/{param}",
            "GET /api/denials", "GET /api/audit",
            "GET /api/jobs", "GET /api/jobs/states", "POST /api/jobs", "GET /api/jobs/{id}", "POST /api/jobs/{id}/stop", "POST /api/jobs/{id}/restart",
            "POST /api/jobs/{id}/discard", "POST /api/jobs/{id}/retry", "GET /api/groups/{id}", "POST /api/groups/{id}/cancel",
            "GET /api/schedules", "POST /api/schedules", "GET /api/schedules/{name}", "PUT /api/schedules/{name}",
            "DELETE /api/schedules/{name}", "POST /api/schedules/{name}/enable", "POST /api/schedules/{name}/disable",
            "POST /api/schedules/{name}/skip", "POST /api/schedules/{name}/run",
            "POST /api/bulk-actions/preview", "POST /api/bulk-actions", "GET /api/bulk-actions", "GET /api/bulk-actions/{id}",
            "POST /api/bulk-actions/{id}/cancel", "GET /api/webhooks", "GET /api/limits"));

    @Test
    void theOpenApiDocumentListsEveryOperationWithItsSecurity() {
        HttpResponse<String> document = ConsoleHttp.send(HttpRequest.newBuilder(URI.create("http://localhost:8080/openapi?format=JSON")).GET());
        assertThat(document.statusCode()).as(document.body()).isEqualTo(200);
        JsonObject openapi = json(document);
        assertThat(openapi.getJsonObject("info").getString("title")).isEqualTo("Dispatch Policy API");
        assertThat(openapi.getJsonObject("components").getJsonObject("securitySchemes").getJsonObject("console-account")
                .getString("scheme")).isEqualTo("basic");
        Set<String> listed = new TreeSet<>();
        // paths as WildFly serves them, under the console's context root
        openapi.getJsonObject("paths").forEach((path, item) -> item.asJsonObject().keySet().stream()
                .filter(method -> Set.of("get", "post", "put", "delete", "patch").contains(method))
                .forEach(method -> listed.add(method.toUpperCase(java.util.Locale.ROOT) + " " + path.replaceFirst("^/dispatch", ""))));
        assertThat(listed).isEqualTo(OPERATIONS);
    }

    // ---------------------------------------------------------------- helpers

    private long stagedFor(String tenant) {
        return db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = ? AND p.partition_key = ?", POLICY, tenant);
    }




}
