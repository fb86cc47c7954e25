package io.dispatchpolicy.it;

import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.completion.JobStops;
import io.dispatchpolicy.console.jobs.FollowLink;
import io.dispatchpolicy.console.jobs.JobActions;
import io.dispatchpolicy.console.jobs.JobLife;
import io.dispatchpolicy.upkeep.RecoveryService;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Continuations (issue 39, deliverable 1; ADR 0051): a job staged through its own policy when the job it follows
 * has ended for good — after its retries — in the transaction that records that end; chains; the Jobs view both
 * ways; refused at submission for what would refuse the continuation's own submission.
 */
class ContinuationsIT extends EngineTest {

    @Inject
    JobActions jobs;

    @Inject
    JobStops stops;

    @Inject
    RecoveryService recovery;

    private static Properties params(String... kv) {
        return Params.of(kv);
    }

    /** The executions of a job, each as [id, start ms, end ms], by JBeret's record. */
    private List<long[]> runs(String job) {
        List<long[]> all = new ArrayList<>();
        for (String row : db.strings("SELECT concat_ws(' ', e.jobexecutionid, (extract(epoch FROM e.starttime) * 1000)::bigint, "
                + "(extract(epoch FROM e.endtime) * 1000)::bigint) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                + "WHERE i.jobname = ? AND e.batchstatus = 'COMPLETED' ORDER BY e.jobexecutionid", job)) {
            String[] f = row.split(" ");
            all.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])});
        }
        return all;
    }

    /** The most executions that ran at one instant. */
    private static int peak(List<long[]> runs) {
        int peak = 0;
        for (long[] r : runs) {
            int at = 0;
            for (long[] o : runs) {
                if (o[1] <= r[1] && r[1] < o[2]) {
                    at++;
                }
            }
            peak = Math.max(peak, at);
        }
        return peak;
    }

    @Test
    void aHundredAsOfWhichThirtyFailAreFollowedBySeventyBsAndThirtyCsThroughTheirOwnPolicies() {
        long bBefore = db.jobExecutions("it-cont-b");
        long cBefore = db.jobExecutions("it-cont-c");
        List<Properties> as = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            as.add(params("tenant", "t" + (i % 5), "fail", Boolean.toString(i % 10 < 3)));
        }
        long[] ids = dispatch.submitAll("it-cont-a", as, SubmitOption.then(
                Continuation.onSuccess("it-cont-b", params("tenant", "b", "sleepMs", "40")),
                Continuation.onFailure("it-cont-c", params("tenant", "c", "sleepMs", "20"))));
        assertThat(ids).hasSize(100);
        assertThat(db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?::bigint[]) AND state = 'waiting'",
                ids)).as("two followers per A, written with it").isEqualTo(200);

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return db.completedExecutions("it-cont-b") - bBefore >= 70 && db.completedExecutions("it-cont-c") - cBefore >= 30
                    && db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?::bigint[]) AND state = 'waiting'",
                    ids) == 0
                    && db.staged("it-cont-b") + db.staged("it-cont-c") + db.staged("it-cont-a") == 0;
        });
        assertThat(db.jobExecutions("it-cont-b") - bBefore).as("exactly one B per A that completed").isEqualTo(70);
        assertThat(db.jobExecutions("it-cont-c") - cBefore).as("exactly one C per A that failed for good").isEqualTo(30);
        assertThat(db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?::bigint[]) AND state = 'staged'", ids))
                .isEqualTo(100);
        assertThat(db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ANY(?::bigint[]) AND state = 'skipped'", ids))
                .isEqualTo(100);

        // each continuation started after its A's last execution ended, and was told which one that was
        JobOperator operator = BatchRuntime.getJobOperator();
        for (String row : db.strings("SELECT concat_ws(' ', f.job_name, a.execution_id, (extract(epoch FROM ae.endtime) * 1000)::bigint, "
                + "ae.batchstatus, fe.jobexecutionid, (extract(epoch FROM fe.starttime) * 1000)::bigint) "
                + "FROM dispatch.followers f JOIN dispatch.admissions a ON a.submission_id = f.after_submission "
                + "JOIN job_execution ae ON ae.jobexecutionid = a.execution_id "
                + "JOIN dispatch.admissions fa ON fa.submission_id = f.submission_id JOIN job_execution fe ON fe.jobexecutionid = fa.execution_id "
                + "WHERE f.after_submission = ANY(?::bigint[]) AND f.state = 'staged'", ids)) {
            String[] f = row.split(" ");
            assertThat(f[3]).as(row).isEqualTo(f[0].equals("it-cont-b") ? "COMPLETED" : "FAILED");
            assertThat(Long.parseLong(f[5])).as("started after its predecessor's last end: %s", row).isGreaterThanOrEqualTo(Long.parseLong(f[2]));
            Properties p = operator.getParameters(Long.parseLong(f[4]));
            assertThat(p.getProperty(Continuation.PREVIOUS_EXECUTION)).as(row).isEqualTo(f[1]);
            assertThat(p.getProperty(Continuation.PREVIOUS_BATCH_STATUS)).isEqualTo(f[3]);
            assertThat(p.getProperty(Continuation.PREVIOUS_JOB)).isEqualTo("it-cont-a");
        }
        // a failed A was retried once before its C: two executions each
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions WHERE submission_id = ANY(?::bigint[]) AND attempt = 2", ids))
                .isEqualTo(30);
        // through their own policies: B at most 2 at once (its concurrency gate, one tenant), C one at a time (capacity 1)
        List<long[]> bs = runs("it-cont-b");
        List<long[]> cs = runs("it-cont-c");
        assertThat(peak(bs.subList(bs.size() - 70, bs.size()))).isBetween(1, 2);
        assertThat(peak(cs.subList(cs.size() - 30, cs.size()))).isEqualTo(1);
    }

    @Test
    void aChainRunsLinkByLinkAndTheJobsViewShowsItBothWays() {
        long[] a = dispatch.submitAll("it-cont-a", List.of(params("tenant", "chain")), SubmitOption.then(
                Continuation.onSuccess("it-cont-b", params("tenant", "chain-b"), SubmitOption.priority(7))
                        .then(Continuation.onAnyEnd("it-cont-c", params("tenant", "chain-c"))),
                Continuation.onFailure("it-cont-c", params("tenant", "never"))));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.followers f JOIN dispatch.followers g ON g.after_submission = f.submission_id "
                    + "WHERE f.after_submission = ? AND g.state <> 'waiting'", a[0]) == 1;
        });
        List<String> first = db.strings("SELECT concat_ws(' ', job_name, on_end, state, detail) FROM dispatch.followers WHERE after_submission = ? "
                + "ORDER BY id", a[0]);
        assertThat(first).containsExactly("it-cont-b success staged COMPLETED", "it-cont-c failure skipped COMPLETED");
        long b = db.count("SELECT submission_id FROM dispatch.followers WHERE after_submission = ? AND state = 'staged'", a[0]);
        assertThat(db.count("SELECT priority FROM dispatch.admissions WHERE submission_id = ?", b)).as("its own options").isEqualTo(7);
        long c = db.count("SELECT submission_id FROM dispatch.followers WHERE after_submission = ?", b);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return dispatch.status(c).state() == SubmissionStatus.State.ADMITTED && dispatch.status(c).executionId().isPresent()
                    && "COMPLETED".equals(db.batchStatus(dispatch.status(c).executionId().getAsLong()));
        });

        JobLife ofA = jobs.life(a[0]).orElseThrow();
        assertThat(ofA.continues()).isEmpty();
        assertThat(ofA.continuedBy()).extracting(FollowLink::jobName, FollowLink::when, FollowLink::state, FollowLink::submissionId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("it-cont-b", "success", "staged", b),
                        org.assertj.core.groups.Tuple.tuple("it-cont-c", "failure", "skipped", null));
        JobLife ofB = jobs.life(b).orElseThrow();
        assertThat(ofB.continues()).extracting(FollowLink::submissionId, FollowLink::when, FollowLink::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(a[0], "success", "COMPLETED"));
        assertThat(ofB.continuedBy()).extracting(FollowLink::jobName, FollowLink::when, FollowLink::state, FollowLink::submissionId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("it-cont-c", "any", "staged", c));
        assertThat(jobs.life(c).orElseThrow().continues()).extracting(FollowLink::submissionId).containsExactly(b);
    }

    @Test
    void anOperatorsStopIsAnEndForOnAnyEndButNotAFailure() {
        long cBefore = db.jobExecutions("it-cont-c");
        long a = dispatch.submitAll("it-cont-a", List.of(params("tenant", "stopped", "sleepMs", "60000")), SubmitOption.then(
                Continuation.onFailure("it-cont-c", params("tenant", "x")),
                Continuation.onAnyEnd("it-cont-b", params("tenant", "after-stop"))))[0];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return dispatch.status(a).executionId().isPresent()
                    && "STARTED".equals(db.batchStatus(dispatch.status(a).executionId().getAsLong()));
        });
        long execution = dispatch.status(a).executionId().getAsLong();
        stops.stop(execution);
        await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(db.batchStatus(execution)));
        // a STOPPED end keeps its slot until it is known to be an operator's: this node's reconcile settles it
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            recovery.reconcile();
            return db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ? AND state = 'waiting'", a) == 0;
        });
        assertThat(db.strings("SELECT concat_ws(' ', job_name, on_end, state, detail) FROM dispatch.followers WHERE after_submission = ? "
                + "ORDER BY id", a)).containsExactly("it-cont-c failure skipped STOPPED", "it-cont-b any staged STOPPED");
        assertThat(db.jobExecutions("it-cont-c")).isEqualTo(cBefore);
        long b = db.count("SELECT submission_id FROM dispatch.followers WHERE after_submission = ? AND state = 'staged'", a);
        assertThat(dispatch.status(b).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(jobs.discard(b)).contains("discarded"); // not left for another test's iterations to run
    }

    @Test
    void aContinuationIsRefusedAtSubmissionForWhatWouldRefuseItsOwnSubmissionAndNothingIsStaged() {
        long newest = db.count("SELECT coalesce(max(id), 0) FROM dispatch.staged_jobs");
        long followers = db.count("SELECT coalesce(max(id), 0) FROM dispatch.followers");
        Map<SubmitOption, String> refused = Map.of(
                SubmitOption.then(Continuation.onSuccess("no-such-job", params())), "Unknown job XML name 'no-such-job'",
                SubmitOption.then(Continuation.onSuccess("it-ungoverned", params())), "governed by no policy",
                SubmitOption.then(Continuation.onFailure("it-cont-b", params(), SubmitOption.lane("nope"))), "lane",
                SubmitOption.then(Continuation.onSuccess("it-cont-b", params("tenant", "x")).then(Continuation.onSuccess("no-such-either", params()))),
                "Continuation on success of 'it-cont-b' to 'no-such-either' is refused");
        refused.forEach((option, message) -> assertThatThrownBy(() -> dispatch.submit("it-cont-a", params("tenant", "r"), option))
                .as(message).isInstanceOf(SubmissionRejectedException.class).hasMessageContaining(message));
        assertThatThrownBy(() -> dispatch.submit("it-ungoverned", params(), SubmitOption.then(Continuation.onSuccess("it-cont-b", params()))))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("cannot carry continuations");
        assertThatThrownBy(() -> Continuation.onSuccess(" ", params())).isInstanceOf(SubmissionRejectedException.class);
        assertThatThrownBy(() -> SubmitOption.then()).isInstanceOf(SubmissionRejectedException.class);
        Continuation chain = Continuation.onSuccess("it-cont-b", params());
        for (int i = 1; i < Continuation.MAX_DEPTH; i++) {
            chain = Continuation.onSuccess("it-cont-b", params()).then(chain);
        }
        Continuation longest = chain;
        assertThat(longest.depth()).isEqualTo(Continuation.MAX_DEPTH);
        assertThatThrownBy(() -> Continuation.onSuccess("it-cont-b", params()).then(longest))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("a chain of at most 32");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id > ?", newest)).as("no job staged").isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.followers WHERE id > ?", followers)).as("no follower written").isZero();
    }

    @Test
    void theWriteApiTakesContinuationsAsTheApplicationGivesThemAndRefusesBadOnesNamingTheField() {
        String operator = "operator:operator-secret";
        java.net.http.HttpResponse<String> ok = ApiCalls.send("POST", "api/jobs", "{\"job\":\"it-cont-a\",\"parameters\":{\"tenant\":\"wapi-cont\"},"
                + "\"then\":[{\"on\":\"success\",\"job\":\"it-cont-b\",\"parameters\":{\"tenant\":\"wapi-cont-b\"},\"priority\":4,"
                + "\"then\":[{\"on\":\"any\",\"job\":\"it-cont-c\",\"parameters\":{\"tenant\":\"wapi-cont-c\"}}]},"
                + "{\"on\":\"failure\",\"job\":\"it-cont-c\",\"parameters\":{\"tenant\":\"wapi-cont-c\"}}]}", operator);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(201);
        long id = ApiCalls.json(ok).getJsonArray("jobs").getJsonObject(0).getJsonNumber("id").longValue();
        assertThat(db.strings("SELECT concat_ws(' ', job_name, on_end, state, submitted_by, spec->'options'->>'priority', "
                + "spec->'next'->0->>'job', spec->'next'->0->>'when') FROM dispatch.followers WHERE after_submission = ? ORDER BY id", id))
                .containsExactly("it-cont-b success waiting operator 4 it-cont-c ANY_END", "it-cont-c failure waiting operator");
        java.net.http.HttpResponse<String> life = ApiCalls.send("GET", "api/jobs/" + id, null, operator);
        assertThat(ApiCalls.json(life).getJsonArray("continuedBy")).hasSize(2);
        assertThat(jobs.discard(id)).contains("discarded");

        long newest = db.count("SELECT coalesce(max(id), 0) FROM dispatch.staged_jobs");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/jobs", "{\"job\":\"it-cont-a\",\"parameters\":{\"tenant\":\"wapi-cont\"},"
                + "\"then\":[{\"on\":\"later\",\"job\":\"it-cont-b\",\"parameters\":{\"tenant\":\"x\"}}]}", operator), 400, "then[0].on",
                "then[0].on must be success, failure or any, was 'later'");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/jobs", "{\"job\":\"it-cont-a\",\"parameters\":{\"tenant\":\"wapi-cont\"},"
                + "\"then\":[{\"on\":\"success\",\"job\":\"it-cont-b\",\"colour\":\"red\"}]}", operator), 400, "then[0].colour",
                "Unknown field 'then[0].colour'");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/jobs", "{\"job\":\"it-cont-a\",\"parameters\":{\"tenant\":\"wapi-cont\"},"
                + "\"then\":[{\"on\":\"success\",\"job\":\"it-cont-b\",\"parameters\":{\"tenant\":\"x\"},\"priority\":\"high\"}]}", operator), 400,
                "then[0].priority", "must be a whole number");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/jobs", "{\"job\":\"it-cont-a\",\"parameters\":{\"tenant\":\"wapi-cont\"},"
                + "\"then\":[{\"on\":\"success\",\"job\":\"no-such-job\",\"parameters\":{\"tenant\":\"x\"}}]}", operator), 400, "then",
                "Continuation on success of 'it-cont-a' to 'no-such-job' is refused: Unknown job XML name 'no-such-job'");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id > ?", newest)).as("nothing staged by the refusals").isZero();
    }

    @Test
    void aContinuationRefusedWhenItsPredecessorEndsIsKeptWithTheReasonAndTheEndStands() {
        // the continuation's partition is full by the time its predecessor ends: its backlog cap of 1 rejects it
        long blocker = dispatch.submit("it-cont-capped", params("tenant", "full"), SubmitOption.delay(Duration.ofHours(1)));
        long a = dispatch.submitAll("it-cont-a", List.of(params("tenant", "refused")), SubmitOption.then(
                Continuation.onSuccess("it-cont-capped", params("tenant", "full")),
                Continuation.onAnyEnd("it-cont-b", params("tenant", "after-refusal"))))[0];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.followers WHERE after_submission = ? AND state = 'waiting'", a) == 0;
        });
        assertThat(db.strings("SELECT concat_ws(' ', job_name, state, (submission_id IS NULL)::text) FROM dispatch.followers WHERE after_submission = ? "
                + "ORDER BY id", a)).containsExactly("it-cont-capped refused true", "it-cont-b staged false");
        assertThat(db.strings("SELECT detail FROM dispatch.followers WHERE after_submission = ? AND state = 'refused'", a))
                .singleElement().satisfies(d -> assertThat(d).startsWith("COMPLETED: ").contains("backlog cap is 1"));
        assertThat(dispatch.status(a).state()).as("its end recorded: the slot freed, admitted and done").isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE submission_id = ?", a)).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = 'it-cont-capped' AND p.partition_key = 'full'")).as("only the blocker").isEqualTo(1);
        JobLife life = jobs.life(a).orElseThrow();
        assertThat(life.continuedBy()).extracting(FollowLink::state).containsExactly("refused", "staged");
        assertThat(jobs.discard(blocker)).contains("discarded");
        long b = db.count("SELECT submission_id FROM dispatch.followers WHERE after_submission = ? AND state = 'staged'", a);
        assertThat(jobs.discard(b)).contains("discarded");
    }
}
