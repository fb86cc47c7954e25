package io.dispatchpolicy.it;

import io.dispatchpolicy.api.GroupStatus;
import io.dispatchpolicy.api.JobGroup;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import jakarta.batch.runtime.BatchRuntime;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Groups (issue 39, deliverable 2; ADR 0052): members staged through their policies together, counted once each when
 * they have ended for good, callbacks staged exactly once when the last has ended; progress; cancel.
 */
class GroupsIT extends EngineTest {

    @jakarta.inject.Inject
    io.dispatchpolicy.console.jobs.JobsRepository jobsRepository;

    @jakarta.inject.Inject
    io.dispatchpolicy.console.jobs.JobActions jobActions;

    private long callbacksStaged(long group, String job) {
        return db.count("SELECT count(*) FROM dispatch.followers WHERE group_id = ? AND kind = 'callback' AND job_name = ? AND state = 'staged'",
                group, job);
    }

    private void iterateUntil(long group, java.util.function.Predicate<GroupStatus> done) {
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            return done.test(dispatch.groupStatus(group));
        });
    }

    @Test
    void aGroupOfAThousandWithTenFailuresRetriedOnceEndsOnceAfterTheLastRetryAndNeverAllSucceeded() {
        List<Properties> members = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            members.add(Params.of("tenant", "g" + (i % 10), "fail", Boolean.toString(i % 100 == 7)));
        }
        long doneBefore = db.jobExecutions("it-group-done");
        long okBefore = db.jobExecutions("it-group-ok");
        long group = dispatch.submitGroup(JobGroup.of("thousand", "it-group", members)
                .onAllSucceeded("it-group-ok", Params.of("tenant", "ok"))
                .onAllEnded("it-group-done", Params.of("tenant", "done")));

        GroupStatus start = dispatch.groupStatus(group);
        assertThat(start.total()).isEqualTo(1_000);
        assertThat(start.staged()).isEqualTo(1_000);
        assertThat(start.ended()).isZero();
        assertThat(start.callbacks()).containsExactly("all-succeeded it-group-ok: waiting", "all-ended it-group-done: waiting");

        iterateUntil(group, s -> s.endedAt() != null);
        GroupStatus ended = dispatch.groupStatus(group);
        assertThat(ended.completed()).isEqualTo(990);
        assertThat(ended.failed()).isEqualTo(10);
        assertThat(ended.dead()).as("retries 1 spent: dead").isEqualTo(10);
        assertThat(ended.stopped()).isZero();
        assertThat(ended.discarded()).isZero();
        assertThat(ended.staged()).isZero();
        assertThat(ended.running()).isZero();
        // the failed ones ran twice: a member counts at its last end, not at its first failure
        assertThat(db.count("SELECT count(*) FROM dispatch.followers f JOIN dispatch.admissions a ON a.submission_id = f.after_submission "
                + "WHERE f.group_id = ? AND f.kind = 'group' AND a.attempt = 2", group)).isEqualTo(10);
        assertThat(callbacksStaged(group, "it-group-done")).isEqualTo(1);
        assertThat(callbacksStaged(group, "it-group-ok")).isZero();
        assertThat(db.strings("SELECT state || ' ' || detail FROM dispatch.followers WHERE group_id = ? AND kind = 'callback' "
                + "AND job_name = 'it-group-ok'", group)).containsExactly("skipped 990 of 1000 completed, 10 failed, 0 stopped, 0 discarded");
        // the callback started after the last retry ended
        long callback = db.count("SELECT submission_id FROM dispatch.followers WHERE group_id = ? AND job_name = 'it-group-done'", group);
        iterateUntil(group, s -> dispatch.status(callback).executionId().isPresent()
                && "COMPLETED".equals(db.batchStatus(dispatch.status(callback).executionId().getAsLong())));
        long lastMemberEnd = db.count("SELECT (extract(epoch FROM max(e.endtime)) * 1000)::bigint FROM dispatch.followers f "
                + "JOIN dispatch.admissions a ON a.submission_id = f.after_submission JOIN job_execution e ON e.jobexecutionid = a.execution_id "
                + "WHERE f.group_id = ? AND f.kind = 'group'", group);
        long callbackStart = db.count("SELECT (extract(epoch FROM e.starttime) * 1000)::bigint FROM job_execution e WHERE e.jobexecutionid = ?",
                dispatch.status(callback).executionId().getAsLong());
        assertThat(callbackStart).isGreaterThanOrEqualTo(lastMemberEnd);
        Properties p = BatchRuntime.getJobOperator().getParameters(dispatch.status(callback).executionId().getAsLong());
        assertThat(p.getProperty(JobGroup.GROUP_ID)).isEqualTo(Long.toString(group));
        assertThat(p.getProperty(JobGroup.GROUP_COMPLETED)).isEqualTo("990");
        assertThat(p.getProperty(JobGroup.GROUP_FAILED)).isEqualTo("10");
        assertThat(p.getProperty("tenant")).isEqualTo("done");
        assertThat(db.jobExecutions("it-group-done") - doneBefore).as("all-ended ran once").isEqualTo(1);
        assertThat(db.jobExecutions("it-group-ok") - okBefore).as("all-succeeded never").isZero();
    }

    @Test
    void aGroupOfMixedJobsThatAllCompleteRunsBothCallbacksOnce() {
        long okBefore = db.jobExecutions("it-group-ok");
        long group = dispatch.submitGroup(JobGroup.named("mixed")
                .add("it-group", List.of(Params.of("tenant", "m1"), Params.of("tenant", "m2")))
                .add("it-cont-b", Params.of("tenant", "m3"), SubmitOption.priority(3))
                .onAllSucceeded("it-group-ok", Params.of("tenant", "mixed-ok"))
                .onAllEnded("it-group-done", Params.of("tenant", "mixed-done")));
        iterateUntil(group, s -> s.endedAt() != null);
        GroupStatus s = dispatch.groupStatus(group);
        assertThat(List.of(s.total(), s.completed(), s.failed(), s.ended())).containsExactly(3, 3, 0, 3);
        assertThat(callbacksStaged(group, "it-group-ok")).isEqualTo(1);
        assertThat(callbacksStaged(group, "it-group-done")).isEqualTo(1);
        iterateUntil(group, x -> db.jobExecutions("it-group-ok") - okBefore == 1);

        // the API: its progress, and a cancel refused once it has ended (or to a viewer, audited)
        java.net.http.HttpResponse<String> read = ApiCalls.send("GET", "api/groups/" + group, null, "viewer:viewer-secret");
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        jakarta.json.JsonObject json = ApiCalls.json(read);
        assertThat(List.of(json.getInt("total"), json.getInt("completed"), json.getInt("failed"), json.getInt("staged")))
                .containsExactly(3, 3, 0, 0);
        assertThat(json.getString("name")).isEqualTo("mixed");
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/groups/" + group + "/cancel", null, "operator:operator-secret"), 409, null,
                "has ended already");
        ApiCalls.assertProblem(ApiCalls.send("GET", "api/groups/" + Long.MAX_VALUE, null, "viewer:viewer-secret"), 404, null, "No group");
        long open = dispatch.submitGroup(JobGroup.named("api-cancel").add("it-group", Params.of("tenant", "api-c"),
                SubmitOption.delay(Duration.ofHours(1))));
        ApiCalls.assertProblem(ApiCalls.send("POST", "api/groups/" + open + "/cancel", null, "viewer:viewer-secret"), 403, null,
                "may cancel groups");
        java.net.http.HttpResponse<String> cancelled = ApiCalls.send("POST", "api/groups/" + open + "/cancel", null, "operator:operator-secret");
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(ApiCalls.json(cancelled).getString("message")).contains("1 staged member discarded");
        assertThat(db.strings("SELECT actor || ' ' || outcome FROM dispatch.audit_log WHERE action = 'GROUP_CANCEL' AND target = ? ORDER BY id",
                Long.toString(open))).containsExactly("viewer refused", "operator done");
        assertThat(dispatch.groupStatus(open).endedAt()).as("its one member discarded: ended").isNotNull();
    }

    @Test
    void aCancelledGroupDiscardsItsStagedMembersAndRunsNoCallback() {
        List<Properties> later = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            later.add(Params.of("tenant", "c" + (i % 5)));
        }
        long group = dispatch.submitGroup(JobGroup.named("to-cancel")
                .add("it-group", later, SubmitOption.delay(Duration.ofHours(1)))
                .add("it-group", Params.of("tenant", "c-now", "sleepMs", "1500"))
                .onAllEnded("it-group-done", Params.of("tenant", "never")));
        long running = db.count("SELECT f.after_submission FROM dispatch.followers f JOIN dispatch.staged_jobs s ON s.id = f.after_submission "
                + "WHERE f.group_id = ? AND s.due_at IS NULL", group);
        iterateUntil(group, s -> s.running() == 1);
        assertThat(dispatch.cancelGroup(group)).isEqualTo(50);
        assertThat(dispatch.cancelGroup(group)).as("already cancelled").isZero();
        GroupStatus cancelled = dispatch.groupStatus(group);
        assertThat(cancelled.cancelledAt()).isNotNull();
        assertThat(List.of(cancelled.total(), cancelled.staged(), cancelled.running(), cancelled.discarded()))
                .containsExactly(51, 0, 1, 50);
        assertThat(cancelled.endedAt()).as("its running member has not ended").isNull();
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs d JOIN dispatch.followers f ON f.after_submission = d.submission_id "
                + "WHERE f.group_id = ? AND d.reason = 'cancelled'", group)).isEqualTo(50);
        iterateUntil(group, s -> s.endedAt() != null);
        assertThat(dispatch.status(running).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        GroupStatus ended = dispatch.groupStatus(group);
        assertThat(List.of(ended.completed(), ended.discarded(), ended.ended())).containsExactly(1, 50, 51);
        assertThat(ended.callbacks()).containsExactly("all-ended it-group-done: skipped (group cancelled)");
        // the Jobs view lists the group's members by its id
        List<io.dispatchpolicy.console.jobs.JobRow> members = jobsRepository.find(new io.dispatchpolicy.console.jobs.JobQuery(
                io.dispatchpolicy.console.jobs.JobQuery.By.GROUP, Long.toString(group), null, 0, 100));
        assertThat(members).hasSize(51);
        assertThat(members.stream().filter(r -> r.state().equals("DISCARDED")).count()).isEqualTo(50);
        assertThat(members.stream().filter(r -> r.state().equals("ADMITTED")).map(io.dispatchpolicy.console.jobs.JobRow::submissionId))
                .containsExactly(running);
        assertThat(jobActions.life(running).orElseThrow().groupId()).isEqualTo(group);
    }

    @Test
    void badGroupsAreRefusedAndNothingIsStaged() {
        long newest = db.count("SELECT coalesce(max(id), 0) FROM dispatch.staged_jobs");
        long groupsBefore = db.count("SELECT count(*) FROM dispatch.job_groups");
        assertThatThrownBy(() -> dispatch.submitGroup(JobGroup.named("empty"))).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("has no member");
        assertThatThrownBy(() -> JobGroup.named(" ")).isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("named");
        assertThatThrownBy(() -> dispatch.submitGroup(JobGroup.named("ungoverned").add("it-group", Params.of("tenant", "x"))
                .add("it-ungoverned", new Properties()))).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("job 'it-ungoverned' is governed by no policy");
        assertThatThrownBy(() -> dispatch.submitGroup(JobGroup.named("bad-callback").add("it-group", Params.of("tenant", "x"))
                .onAllEnded("no-such-job", new Properties()))).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("of group 'bad-callback' to 'no-such-job' is refused");
        assertThatThrownBy(() -> dispatch.submitGroup(JobGroup.named("bad-member").add("it-group", Params.of("tenant", "x"))
                .add("it-group", Params.of("tenant", "")))).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("partition key");
        // at the size limit's edge: one past it refused before anything is placed or written
        List<Properties> tooMany = java.util.Collections.nCopies(JobGroup.MAX_MEMBERS + 1, Params.of("tenant", "x"));
        assertThatThrownBy(() -> dispatch.submitGroup(JobGroup.of("too-big", "it-group", tooMany)))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("has 100001 members, more than 100000");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id > ?", newest)).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.job_groups")).as("no group row left by a refusal").isEqualTo(groupsBefore);
        assertThat(dispatch.groupStatus(Long.MAX_VALUE).exists()).isFalse();
        assertThatThrownBy(() -> dispatch.cancelGroup(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("No group");
    }
}
