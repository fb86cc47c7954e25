package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionStatus;
import jakarta.annotation.Resource;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;

import static io.dispatchpolicy.it.ApiCalls.assertProblem;
import static io.dispatchpolicy.it.ApiCalls.json;
import static io.dispatchpolicy.it.ApiCalls.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bulk actions by filter (ADR 0039) through the API: a discard of 100,000 staged jobs runs in batches beside the
 * node's tick, which admits other tenants meanwhile; it reports its progress, touches nothing its filter does not
 * match, and is one audit row. A cancel stops an action between batches; bad requests are problems naming the field.
 */
class BulkActionsIT extends EngineTest {

    private static final String POLICY = "it-cap3";
    private static final String OPERATOR = "operator:operator-secret";
    private static final String VIEWER = "viewer:viewer-secret";

    @Resource(lookup = "java:jboss/datasources/DispatchDS")
    DataSource pool;

    @Test
    void aBulkDiscardOfAHundredThousandStagedJobsRunsBesideTheTickAndTouchesNothingElse() throws Exception {
        touch(POLICY);
        // the doomed tenant's partition is full (3 of 3 running), so the tick admits none of it meanwhile
        stage(POLICY, "bulk-doomed", 1, "batch", "kept");
        occupySlots(POLICY, "bulk-doomed", 3);
        long[] doomed = stageMany("bulk-doomed", 100_000, "doomed");
        long[] kept = stageMany("bulk-doomed", 499, "kept");
        long partition = partitionId(POLICY, "bulk-doomed");
        long auditBefore = db.count("SELECT coalesce(max(id), 0) FROM dispatch.audit_log");
        try {
            letTheNodeTick();
            String body = "{\"kind\":\"discard\",\"filter\":{\"policy\":\"it-cap3\",\"partition\":\"bulk-doomed\",\"parameter\":\"batch=doomed\"}}";
            HttpResponse<String> preview = send("POST", "api/bulk-actions/preview", body, OPERATOR);
            assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
            assertThat(json(preview).getJsonNumber("matched").longValue()).isEqualTo(100_000);

            HttpResponse<String> started = send("POST", "api/bulk-actions", body, OPERATOR);
            assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
            long id = json(started).getJsonNumber("id").longValue();
            assertThat(started.headers().firstValue("Location")).hasValue(ConsoleHttp.CONSOLE + "api/bulk-actions/" + id);
            assertThat(json(started).getJsonNumber("matched").longValue()).isEqualTo(100_000);

            // other tenants' jobs, submitted while it runs, are admitted and run by the tick meanwhile
            List<Long> others = new ArrayList<>();
            for (int t = 0; t < 20; t++) {
                for (long s : stage(POLICY, "bulk-other-" + t, 5, "sleepMs", "1")) {
                    others.add(s);
                }
            }
            List<Long> progress = new ArrayList<>();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> {
                JsonObject now = json(send("GET", "api/bulk-actions/" + id, null, VIEWER));
                long done = now.getJsonNumber("done").longValue();
                if (progress.isEmpty() || progress.get(progress.size() - 1) != done) {
                    progress.add(done);
                }
                return "done".equals(now.getString("state"));
            });
            JsonObject finished = json(send("GET", "api/bulk-actions/" + id, null, VIEWER));
            assertThat(finished.getJsonNumber("done").longValue()).isEqualTo(100_000);
            assertThat(finished.getJsonNumber("skipped").longValue()).isZero();
            assertThat(finished.getJsonNumber("failed").longValue()).isZero();
            assertThat(finished.getInt("percent")).isEqualTo(100);
            assertThat(progress).as("progress as it ran, polled: it rose in steps").isSorted().hasSizeGreaterThan(2);

            // exactly its filter's jobs: gone from staging, kept as DISCARDED; the 500 others of the partition untouched
            assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE submission_id = ANY(?) AND reason = 'discarded' "
                    + "AND detail = ?", ids(doomed), "bulk action " + id + " by operator")).isEqualTo(100_000);
            assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE partition_id = ?", partition)).isEqualTo(500);
            assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ANY(?)", ids(kept))).isEqualTo(499);
            assertThat(db.count("SELECT pending_count + scheduled_count + parked_count FROM dispatch.partitions WHERE id = ?", partition))
                    .as("the partition's counts agree with its rows").isEqualTo(500);
            await().atMost(Duration.ofMinutes(2)).until(() -> others.stream().allMatch(s -> dispatch.status(s).executionId().isPresent()
                    && "COMPLETED".equals(db.batchStatus(dispatch.status(s).executionId().getAsLong()))));
            assertThat(db.strings("SELECT action || ' ' || actor || ' ' || outcome FROM dispatch.audit_log WHERE id > ? AND action LIKE 'BULK%'",
                    auditBefore)).containsExactly("BULK_ACTION operator done");
            assertThat(send("GET", "api/jobs/" + doomed[0], null, VIEWER).body()).contains("\"state\":\"DISCARDED\"");
        } finally {
            freeSlots(POLICY, "bulk-doomed");
            db.update("DELETE FROM dispatch.discarded_jobs WHERE submission_id = ANY(?)", ids(doomed));
        }
    }

    @Test
    void aCancelledActionStopsBetweenBatchesAndBadRequestsAreProblems() throws Exception {
        // the node's tick is stopped here: what is staged stays staged, but for the action
        long[] staged = stageMany("bulk-cancel", 20_000, "x");
        long partition = partitionId(POLICY, "bulk-cancel");
        try {
            String body = "{\"kind\":\"expire\",\"filter\":{\"policy\":\"it-cap3\",\"partition\":\"bulk-cancel\"}}";
            assertProblem(send("POST", "api/bulk-actions", body, VIEWER), 403, null, "may run bulk actions");
            assertProblem(send("POST", "api/bulk-actions", "{\"kind\":\"nuke\",\"filter\":{\"policy\":\"it-cap3\"}}", OPERATOR), 400, "kind",
                    "not a bulk action");
            assertProblem(send("POST", "api/bulk-actions", "{\"kind\":\"discard\",\"filter\":{}}", OPERATOR), 400, "filter.policy",
                    "at least one criterion");
            assertProblem(send("POST", "api/bulk-actions", "{\"kind\":\"discard\",\"filter\":{\"partition\":\"bulk-cancel\"}}", OPERATOR), 400,
                    "filter.partition", "give the policy too");
            assertProblem(send("POST", "api/bulk-actions", "{\"kind\":\"discard\",\"filter\":{\"policy\":\"it-cap3\",\"colour\":\"red\"}}",
                    OPERATOR), 400, "filter.colour", "Unknown field");
            assertProblem(send("GET", "api/bulk-actions/999999999", null, VIEWER), 404, null, "No bulk action");
            assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE partition_id = ?", partition)).isEqualTo(20_000);

            // the partition's lock held here: the action's first batch waits for it, the cancel waits for that batch
            long id;
            CompletableFuture<HttpResponse<String>> cancel;
            try (Connection holder = pool.getConnection()) {
                holder.setAutoCommit(false);
                try (Statement lock = holder.createStatement()) {
                    lock.execute("SELECT id FROM dispatch.partitions WHERE id = " + partition + " FOR UPDATE");
                }
                HttpResponse<String> started = send("POST", "api/bulk-actions", body, OPERATOR);
                assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
                id = json(started).getJsonNumber("id").longValue();
                await().atMost(Duration.ofSeconds(30)).until(() -> db.count("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a "
                        + "ON a.pid = l.pid WHERE NOT l.granted AND a.query LIKE '%discarded_jobs%'") > 0);
                long cancelId = id;
                cancel = CompletableFuture.supplyAsync(() -> send("POST", "api/bulk-actions/" + cancelId + "/cancel", null, OPERATOR));
                await().atMost(Duration.ofSeconds(30)).until(() -> db.count("SELECT count(*) FROM pg_stat_activity "
                        + "WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE dispatch.bulk_actions SET cancel_requested_by%'") > 0);
                holder.rollback();
            }
            HttpResponse<String> cancelled = cancel.get();
            assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
            long actionId = id;
            await().atMost(Duration.ofSeconds(30)).until(() -> "cancelled".equals(json(send("GET", "api/bulk-actions/" + actionId, null, VIEWER))
                    .getString("state")));
            JsonObject state = json(send("GET", "api/bulk-actions/" + actionId, null, VIEWER));
            long done = state.getJsonNumber("done").longValue();
            assertThat(done).as("whole batches of 2,000, and not all of them").isPositive().isLessThan(20_000);
            assertThat(done % 2_000).isZero();
            assertThat(state.getString("cancelRequestedBy")).isEqualTo("operator");
            assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE submission_id = ANY(?) AND reason = 'expired'", ids(staged)))
                    .isEqualTo(done);
            assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE partition_id = ?", partition)).isEqualTo(20_000 - done);
            assertThat(dispatch.status(staged[0]).state()).isEqualTo(SubmissionStatus.State.EXPIRED);
            assertProblem(send("POST", "api/bulk-actions/" + actionId + "/cancel", null, OPERATOR), 409, null, "only a running one");
        } finally {
            db.update("DELETE FROM dispatch.discarded_jobs WHERE submission_id = ANY(?)", ids(staged));
        }
    }

    @Test
    void stopRestartAndRetryActOnTheJobsTheirFiltersMatch() {
        // running: three of one tenant and one of another; stopped by filter, then restarted by filter
        long[] running = stage("it-stop", "bulk-stop", 3, "sleepMs", "60000");
        long other = stage("it-stop", "bulk-stop-other", 1, "sleepMs", "60000")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(4);
        long[] executions = LongStream.of(running).map(id -> dispatch.status(id).executionId().getAsLong()).toArray();
        long otherExecution = dispatch.status(other).executionId().getAsLong();
        await().atMost(Duration.ofSeconds(30)).until(() -> LongStream.of(executions).allMatch(e -> "STARTED".equals(db.batchStatus(e)))
                && "STARTED".equals(db.batchStatus(otherExecution)));
        try {
            long stop = runToEnd("{\"kind\":\"stop\",\"filter\":{\"policy\":\"it-stop\",\"partition\":\"bulk-stop\"}}", 3);
            await().atMost(Duration.ofSeconds(30)).until(() -> LongStream.of(executions).allMatch(e -> "STOPPED".equals(db.batchStatus(e))));
            assertThat(db.batchStatus(otherExecution)).as("another tenant's job").isEqualTo("STARTED");
            await().atMost(Duration.ofSeconds(30)).until(() -> db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE submission_id = ANY(?)",
                    ids(running)) == 0);

            long restart = runToEnd("{\"kind\":\"restart\",\"filter\":{\"policy\":\"it-stop\",\"partition\":\"bulk-stop\"}}", 3);
            for (long id : running) {
                assertThat(dispatch.status(id).state()).as("restarted through its policy: staged again").isEqualTo(SubmissionStatus.State.STAGED);
            }
            assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE restart_of = ANY(?)", ids(executions))).isEqualTo(3);
            assertThat(stop).isLessThan(restart);
        } finally {
            send("POST", "api/jobs/" + other + "/stop", null, OPERATOR);
            await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(db.batchStatus(otherExecution)));
        }

        // the restarted jobs out of the way of the next iteration
        assertThat(json(send("POST", "api/partitions/" + partitionId("it-stop", "bulk-stop") + "/drain", null, OPERATOR)).getInt("drained"))
                .isEqualTo(3);

        // dead: two of one tenant retried by filter, a third of another tenant stays dead
        long[] dying = stage("it-deadnow", "bulk-dead", 2, "fail", "true");
        long spared = stage("it-deadnow", "bulk-dead-other", 1, "fail", "true")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> LongStream.concat(LongStream.of(dying), LongStream.of(spared))
                .allMatch(id -> dispatch.status(id).state() == SubmissionStatus.State.DEAD));
        runToEnd("{\"kind\":\"retry\",\"filter\":{\"policy\":\"it-deadnow\",\"partition\":\"bulk-dead\"}}", 2);
        for (long id : dying) {
            assertThat(dispatch.status(id).state()).isEqualTo(SubmissionStatus.State.STAGED);
        }
        assertThat(dispatch.status(spared).state()).isEqualTo(SubmissionStatus.State.DEAD);
        db.update("DELETE FROM dispatch.dead_jobs WHERE submission_id = ?", spared);
    }

    /** Starts a bulk action, awaits its end, checks it matched and did {@code expected}; @return its id */
    private long runToEnd(String body, int expected) {
        HttpResponse<String> preview = send("POST", "api/bulk-actions/preview", body, OPERATOR);
        assertThat(json(preview).getJsonNumber("matched").longValue()).as(body).isEqualTo(expected);
        HttpResponse<String> started = send("POST", "api/bulk-actions", body, OPERATOR);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        long id = json(started).getJsonNumber("id").longValue();
        await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(json(send("GET", "api/bulk-actions/" + id, null, VIEWER)).getString("state")));
        JsonObject done = json(send("GET", "api/bulk-actions/" + id, null, VIEWER));
        assertThat(done.getJsonNumber("done").longValue()).as(done.toString()).isEqualTo(expected);
        assertThat(done.getJsonNumber("failed").longValue()).as(done.toString()).isZero();
        return id;
    }

    // ---------------------------------------------------------------- helpers

    /** Stages {@code count} jobs of one tenant through the policy, 10,000 a call, each with parameter batch={@code batch}. */
    private long[] stageMany(String tenant, int count, String batch) {
        touch(POLICY);
        List<long[]> calls = new ArrayList<>();
        for (int from = 0; from < count; from += 10_000) {
            List<Properties> jobs = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 10_000); i++) {
                jobs.add(Params.of("tenant", tenant, "batch", batch, "sleepMs", "1"));
            }
            calls.add(dispatch.submitAll(POLICY, jobs));
        }
        return calls.stream().flatMapToLong(LongStream::of).toArray();
    }

    /** The ids as one SQL array argument (typed Object: a Long[] would spread over the varargs). */
    private static Object ids(long[] ids) {
        return LongStream.of(ids).boxed().toArray(Long[]::new);
    }



}
