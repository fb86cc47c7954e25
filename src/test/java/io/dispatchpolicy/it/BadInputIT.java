package io.dispatchpolicy.it;

import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.console.monitoring.HeldPolicy;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.schedule.ScheduleDefinition;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.schedule.ScheduleActionRefused;
import io.dispatchpolicy.schedule.ScheduleRegistry;
import io.dispatchpolicy.schedule.ScheduleWatchdog;
import io.dispatchpolicy.spi.ScheduleDeclarationException;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobExecutionNotRunningException;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.inject.Inject;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The bad-input catalogue (docs/reliability.md, "Bad input"): each kind of bad input gets its error, and
 * what was accepted before it is still there afterwards — staged, admitted once the input is fixed, or
 * left as it was. The kinds other system tests already cover are listed there with their tests; these
 * are the rest: submissions, restarts, settings written live and read at boot, schedules, the console's
 * pages and the JSON endpoint (called over HTTP from inside the server, with a test account).
 */
class BadInputIT extends EngineTest {

    private static final String POLICY = "it-badin";
    private static final String LANES = "it-badin-lanes";
    private static final String LANES_PROPERTY = "dispatch.policy." + LANES + ".lanes";
    /** Declared in code by {@link TestSchedules}. */
    private static final String DECLARED = "it-declared";
    private static final Instant ANCHOR = Instant.parse("2025-01-01T00:00:00Z");

    /** The console as the server serves it (the managed WildFly's HTTP port, no offset: the browser tests' too). */
    private static final String CONSOLE = "http://localhost:8080/dispatch/";
    /** A console account the test run writes into the server's ApplicationRealm (EmbeddedPostgresSession.TEST_ACCOUNTS). */
    private static final String VIEWER = "viewer:viewer-secret";

    @Inject
    @Governed
    JobOperator governed;

    @Inject
    PolicyRegistry policies;

    @Inject
    DispatchSettings settings;

    @Inject
    Monitoring monitoring;

    @Inject
    ScheduleControl schedules;

    @Inject
    ScheduleRegistry declaredSchedules;

    @Inject
    ScheduleWatchdog watchdog;

    private final List<String> created = new ArrayList<>();

    @AfterEach
    void deleteTheTestsSchedules() {
        deleteSchedules(schedules, created);
    }

    // ---------------------------------------------------------------- submission

    @Test
    void aFailingPriorityOrTenantFunctionAParameterThatIsNoStringOrAnUnnamedLaneStagesNothingAndKeepsWhatWasStaged() {
        long kept = stage(POLICY, "fn", 1)[0];

        rejected(() -> stage(POLICY, "fn", 1, "urgency", "high"), "the priority function failed for job 'it-badin'");
        rejected(() -> stage(POLICY, "fn", 1, "account", "!"), "the tenant function failed for job 'it-badin'");
        Properties typed = Params.of("tenant", "fn");
        typed.put("attempts", 3);
        rejected(() -> dispatch.submit(POLICY, typed), "Job parameters must have String keys and values");
        rejected(() -> stage(POLICY, "fn", 1, new SubmitOption[] {SubmitOption.lane(" ")}), "SubmitOption.lane: the lane must be named");
        rejected(() -> submit(POLICY, "fn", 1, SubmitOption.delay(null)), "SubmitOption.delay: the delay must not be null");

        assertThat(db.staged(POLICY)).as("staged jobs of %s", POLICY).isEqualTo(1);
        assertThat(dispatch.status(kept).state()).isEqualTo(SubmissionStatus.State.STAGED);
        iterateUntilAdmitted(kept);
    }

    @Test
    void stoppingOrRestartingAStagedSubmissionAndReadingAnUnknownOneAreRefusedAndTheStagedJobRunsLater() {
        long staged = stage(POLICY, "ids", 1)[0];

        assertThat(causeOf(catchThrowable(() -> governed.stop(staged)), JobExecutionNotRunningException.class))
                .hasMessage("Submission " + staged + " is still staged: it has no execution yet");
        assertThat(causeOf(catchThrowable(() -> governed.restart(staged, new Properties())), JobExecutionNotRunningException.class))
                .hasMessage("Submission " + staged + " is still staged: it has no execution yet");
        long unknown = Long.MAX_VALUE;
        assertThat(dispatch.status(unknown).state()).isEqualTo(SubmissionStatus.State.UNKNOWN);
        assertThat(causeOf(catchThrowable(() -> governed.getJobExecution(unknown)), NoSuchJobExecutionException.class))
                .hasMessage("No job execution or submission with id " + unknown);

        assertThat(dispatch.status(staged).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(db.staged(POLICY)).isEqualTo(1);
        iterateUntilAdmitted(staged);
    }

    @Test
    void restartingACompletedJobOrRestartingAFailedOneTwiceIsRefusedAndTheFirstRestartRuns() {
        long completed = stage(POLICY, "done", 1)[0];
        long failed = stage(POLICY, "broken", 1, "fail", "true")[0];
        iterateUntilAdmitted(completed, failed);
        await().atMost(Duration.ofSeconds(30)).until(() -> governed.getJobExecution(completed).getBatchStatus() == BatchStatus.COMPLETED
                && governed.getJobExecution(failed).getBatchStatus() == BatchStatus.FAILED);
        long completedExecution = dispatch.status(completed).executionId().orElseThrow();
        long failedExecution = dispatch.status(failed).executionId().orElseThrow();

        assertThat(causeOf(catchThrowable(() -> governed.restart(completed, new Properties())), JobExecutionAlreadyCompleteException.class))
                .hasMessage("Execution " + completedExecution + " already completed");
        assertThat(restartsStagedFor(completedExecution)).isZero();

        long again = governed.restart(failed, Params.of("fail", "false"));
        assertThat(causeOf(catchThrowable(() -> governed.restart(failed, Params.of("fail", "false"))), JobRestartException.class))
                .hasMessage("Execution " + failedExecution + " is already being restarted: submission " + again
                        + " is staged for it (an automatic retry, or an earlier restart)");
        assertThat(restartsStagedFor(failedExecution)).as("the first restart, alone").isEqualTo(1);

        iterateUntilAdmitted(again);
        await().atMost(Duration.ofSeconds(30)).until(() -> governed.getJobExecution(again).getBatchStatus() == BatchStatus.COMPLETED);
        assertThat(governed.getJobExecution(completed).getBatchStatus()).isEqualTo(BatchStatus.COMPLETED);
    }

    // ---------------------------------------------------------------- configuration, live and at boot

    @Test
    void lanesThatDoNotFitTheCapacityFailTheBootChecksAndWrittenLiveHoldThePolicyWhileSubmissionsAreStillStaged() {
        long before = stage(LANES, "early", 1)[0];
        String bad = "main:3:9,side:1";
        set(LANES_PROPERTY, bad);

        // what the deployment would fail with, had standalone.xml said so at boot
        assertThatThrownBy(policies::validateSettings).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value '" + bad + "' for " + LANES_PROPERTY + ": expected lanes that fit the policy: "
                        + "the lanes' minimums add up to 9, more than the capacity 4");

        // live: a submission is not refused for an operator's typo; it waits in the declared default lane
        long during = stage(LANES, "late", 1)[0];
        assertThat(db.stagedLanes(before, during)).containsExactly("main", "main");
        iterate(LANES);
        assertThat(states(before, during)).containsOnly(SubmissionStatus.State.STAGED);
        // every waiting partition says why it waits, lanes included (issue 31: they showed no reason)
        assertThat(db.strings("SELECT partition_key || ' ' || lane || ' ' || coalesce(last_deny_reason, 'none') FROM dispatch.partitions "
                + "WHERE policy_name = ? AND pending_count > 0 ORDER BY partition_key", LANES))
                .containsExactly("early main " + Denial.INVALID_SETTINGS, "late main " + Denial.INVALID_SETTINGS);
        long waiting = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'early' AND lane = 'main'",
                LANES);
        assertThat(monitoring.partition(waiting).orElseThrow().waiting()).contains("held").contains(LANES_PROPERTY);
        assertThat(monitoring.nodeStatus().heldPolicies()).filteredOn(h -> h.policy().equals(LANES))
                .extracting(HeldPolicy::property, HeldPolicy::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(LANES_PROPERTY, bad));

        set(LANES_PROPERTY, "main:3,side:1"); // fixed (as declared)
        iterateUntilAdmitted(before, during);
        assertThat(monitoring.nodeStatus().heldPolicies()).filteredOn(h -> h.policy().equals(LANES)).isEmpty();
        policies.validateSettings();
    }

    @Test
    void aBadGlobalValueWrittenLiveFailsTheIterationNamingItAndNothingStagedIsTouched() {
        long[] ids = stage(POLICY, "global", 2);
        set(DispatchSettings.PARTITION_BATCH_SIZE, "lots");

        assertThat(causeOf(catchThrowable(ticks::iterate), InvalidSettingException.class))
                .hasMessage("Invalid value 'lots' for dispatch.partition-batch-size: expected a whole number >= 1");
        assertThat(states(ids)).containsOnly(SubmissionStatus.State.STAGED);

        set(DispatchSettings.PARTITION_BATCH_SIZE, "50");
        iterateUntilAdmitted(ids);
    }

    @Test
    void aHeartbeatThatLeavesNoRoomForTheStaleLimitFailsTheBootChecksNamingTheLimit() {
        set(DispatchSettings.HEARTBEAT_INTERVAL, "200"); // read at deployment: the running node keeps its own

        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("for dispatch.inflight-stale-after: expected at least twice dispatch.heartbeat-interval (200 s)");

        set(DispatchSettings.HEARTBEAT_INTERVAL, "5");
        settings.validate();
    }

    @Test
    void aSuspendJobWaitThatIsNoNumberFailsTheBootChecksAndZeroIsAccepted() {
        set(DispatchSettings.SUSPEND_JOB_WAIT, "soon");
        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value 'soon' for dispatch.suspend-job-wait: expected a number of seconds >= 0");

        set(DispatchSettings.SUSPEND_JOB_WAIT, "0");
        settings.validate();
        assertThat(settings.suspendJobWait()).isEqualTo(Duration.ZERO);
    }

    @Test
    void aRecoverUngovernedThatIsNoModeFailsTheBootChecks() {
        set(DispatchSettings.RECOVER_UNGOVERNED, "yes");
        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value 'yes' for dispatch.recover-ungoverned: expected off, mark-failed or restart");
        set(DispatchSettings.RECOVER_UNGOVERNED, " Mark-Failed ");
        settings.validate();
        assertThat(settings.recoverUngoverned()).isEqualTo(DispatchSettings.UngovernedRecovery.MARK_FAILED);
    }

    @Test
    void nodeThreadsOrAQueueWaitThatIsNoNumberFailsTheBootChecks() {
        set(DispatchSettings.NODE_THREADS, "lots");
        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value 'lots' for dispatch.node-threads: expected a whole number >= 1, auto or unlimited");
        set(DispatchSettings.NODE_THREADS, "0");
        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessage("Invalid value '0' for dispatch.node-threads: expected a whole number >= 1, auto or unlimited");
        set(DispatchSettings.NODE_THREADS, "Unlimited");
        settings.validate();
        assertThat(settings.nodeThreads()).isEmpty();

        set(DispatchSettings.NODE_QUEUE_WAIT, "soon");
        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith("Invalid value 'soon' for dispatch.node-queue-wait");
        set(DispatchSettings.NODE_QUEUE_WAIT, "off");
        settings.validate();
        assertThat(settings.nodeQueueWait()).isEqualTo(Duration.ZERO);
    }

    @Test
    void anAuditRetentionThatIsNoNumberFailsTheBootChecks() {
        set(DispatchSettings.AUDIT_RETENTION, "soon");
        assertThatThrownBy(settings::validate).isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith("Invalid value 'soon' for dispatch.audit-retention");
        set(DispatchSettings.AUDIT_RETENTION, "86400");
        settings.validate();
        assertThat(settings.auditRetention()).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void anUnknownScheduleFieldFailsTheBootChecksAndWrittenLiveLeavesTheLastValidDefinition() {
        pass();
        List<Long> future = future(DECLARED);
        String typo = "dispatch.schedule." + DECLARED + ".intervall";
        set(typo, "2");

        assertThatThrownBy(declaredSchedules::validateSettings).isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith("Invalid value '2' for " + typo + ": expected dispatch.schedule.<name>.<field> with a field among");
        pass();
        assertThat(future(DECLARED)).as("the same future occurrence").isEqualTo(future);

        System.clearProperty(typo);
        declaredSchedules.validateSettings();
        pass();
        assertThat(future(DECLARED)).isEqualTo(future);
    }

    // ---------------------------------------------------------------- schedules

    @Test
    void aSecondScheduleOfOneNameALaneThePolicyLacksAndChangingADeclaredScheduleAreRefused() {
        create(every("badin-twice", "it-scheduled", 15));
        List<Long> first = future("badin-twice");

        assertThatThrownBy(() -> create(every("badin-twice", "it-scheduled", 7)))
                .isInstanceOf(ScheduleActionRefused.class).hasMessage("A schedule named 'badin-twice' exists already");
        assertThat(future("badin-twice")).as("the first one's future, on its 15-minute grid").isEqualTo(first);
        assertThat(db.count("SELECT version FROM dispatch.schedules WHERE name = 'badin-twice'")).isEqualTo(1);

        assertThatThrownBy(() -> create(new ScheduleDefinition("badin-lane", LANES, Map.of("tenant", "scheduled"), ANCHOR, 15,
                ScheduleUnit.MINUTES, null, ZoneId.of("UTC"), null, "express", false, true)))
                .isInstanceOf(ScheduleDeclarationException.class)
                .hasMessageStartingWith("Schedule 'badin-lane': job '" + LANES + "' with these parameters, priority and lane would be refused")
                .hasMessageContaining("no lane 'express'");
        assertThat(schedules.schedule("badin-lane")).isEmpty();
        assertThat(db.staged(LANES)).isZero();

        pass();
        List<Long> declared = future(DECLARED);
        assertThatThrownBy(() -> schedules.edit(DECLARED, every(DECLARED, "it-scheduled", 5), Operators.ADMIN))
                .isInstanceOf(ScheduleActionRefused.class)
                .hasMessage("Schedule '" + DECLARED + "' is declared in code (a CDI producer): it is edited there, not in the console");
        assertThatThrownBy(() -> schedules.delete(DECLARED, Operators.ADMIN))
                .isInstanceOf(ScheduleActionRefused.class).hasMessageEndingWith("it is deleted there, not in the console");
        assertThat(future(DECLARED)).isEqualTo(declared);
    }

    // ---------------------------------------------------------------- the console and the JSON endpoint

    @Test
    void consolePagesForAForgedLinkOrAScheduleThatDoesNotExistSaySoAndChangeNothing() {
        long staged = stage(POLICY, "forged-link", 1)[0];
        long partition = partitionId(POLICY, "forged-link");

        // a page that only reads is bookmarkable: a link from an alert or a chat opens it as it is
        HttpResponse<String> bookmarked = http("GET", "partition.xhtml?id=" + partition, VIEWER, null);
        assertThat(bookmarked.statusCode()).isEqualTo(200);
        assertThat(bookmarked.body()).contains("forged-link").doesNotContain("\tat ").doesNotContain("Caused by");
        for (String listing : List.of("policies.xhtml", "partitions.xhtml", "denials.xhtml", "dead.xhtml", "schedules.xhtml")) {
            HttpResponse<String> page = http("GET", listing, VIEWER, null);
            assertThat(page.statusCode()).as(listing).isEqualTo(200);
            assertThat(page.body()).as(listing).doesNotContain("id=\"total-pending\"").doesNotContain("\tat ");
        }
        // a forged or mistyped id says so
        for (String id : List.of("999999999", "not-a-number", "")) {
            HttpResponse<String> unknown = http("GET", "partition.xhtml?id=" + id, VIEWER, null);
            assertThat(unknown.statusCode()).as(id).isEqualTo(200);
            assertThat(unknown.body()).as(id).contains("This partition does not exist (any more).")
                    .doesNotContain("\tat ").doesNotContain("Caused by");
        }
        // an action is a POST carrying the page's server-side view state: one forged elsewhere, even sent
        // with an admin's credentials, changes nothing (the job stays STAGED below)
        HttpResponse<String> forgedPost = send(HttpRequest.newBuilder(URI.create(CONSOLE + "partition.xhtml?id=" + partition))
                .header("Authorization", basic("admin:admin-secret"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("partition=partition&partition%3Aforce=partition%3Aforce"
                        + "&partition%3Acount=5&jakarta.faces.ViewState=-1234567890%3A987654321")));
        assertThat(forgedPost.body()).doesNotContain("admitted now").doesNotContain("\tat ");

        HttpResponse<String> missing = http("GET", "schedule.xhtml?name=badin-ghost", VIEWER, null);
        assertThat(missing.statusCode()).isEqualTo(200);
        assertThat(missing.body()).contains("This schedule does not exist (any more).");
        HttpResponse<String> form = http("GET", "schedule-form.xhtml?name=badin-ghost", VIEWER, null);
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("There is no schedule named badin-ghost (any more).");

        assertThat(schedules.schedule("badin-ghost")).isEmpty();
        assertThat(dispatch.status(staged).state()).isEqualTo(SubmissionStatus.State.STAGED);
        iterateUntilAdmitted(staged);
    }

    @Test
    void theJsonEndpointRefusesWhatItDoesNotServeAndAnswersOnlyAnAccount() {
        long staged = stage(POLICY, "api", 1)[0];

        HttpResponse<String> unknownPath = http("GET", "api/no-such-resource", VIEWER, null);
        assertThat(unknownPath.statusCode()).isEqualTo(404);
        assertThat(unknownPath.body()).doesNotContain("\tat ").doesNotContain("Caused by");
        assertThat(http("POST", "api/summary", VIEWER, null).statusCode()).as("a write to the read-only endpoint").isEqualTo(405);
        assertThat(http("DELETE", "api/policies", VIEWER, null).statusCode()).isEqualTo(405);
        assertThat(http("GET", "api/summary", VIEWER, "application/xml").statusCode()).as("XML asked for").isEqualTo(406);

        HttpResponse<String> unknownParameter = http("GET", "api/policies?policy=ghost&limit=-1", VIEWER, null);
        assertThat(unknownParameter.statusCode()).as("it takes no parameters: unknown ones are ignored").isEqualTo(200);
        assertThat(unknownParameter.body()).contains("\"" + POLICY + "\"");

        // a script without an account gets a Basic challenge, not the browsers' login form
        HttpResponse<String> anonymous = http("GET", "api/summary", null, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
        assertThat(anonymous.body()).doesNotContain("j_security_check").doesNotContain("\"pending\"");
        HttpResponse<String> wrongPassword = http("GET", "api/policies", "viewer:not-the-password", null);
        assertThat(wrongPassword.statusCode()).isEqualTo(401);
        assertThat(wrongPassword.body()).doesNotContain("\"" + POLICY + "\"");
        // the browser's console still shows its form
        HttpResponse<String> page = http("GET", "index.xhtml", null, null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("j_security_check");

        assertThat(dispatch.status(staged).state()).isEqualTo(SubmissionStatus.State.STAGED);
        iterateUntilAdmitted(staged);
    }

    @Test
    void aBadSettingTheSummaryReadsAnswers503WithTheNodesStatusUntilFixed() {
        long staged = stage(POLICY, "summary", 1)[0];
        set(DispatchSettings.TICK_MAX_DURATION, "soon");

        HttpResponse<String> held = http("GET", "api/summary", VIEWER, null);
        assertThat(held.statusCode()).as(held.body()).isEqualTo(503);
        assertThat(held.body()).contains("\"nodeName\"").doesNotContain("\"pending\"");

        set(DispatchSettings.TICK_MAX_DURATION, "5");
        HttpResponse<String> fixed = http("GET", "api/summary", VIEWER, null);
        assertThat(fixed.statusCode()).as(fixed.body()).isEqualTo(200);
        assertThat(fixed.body()).contains("\"pending\"");
        assertThat(dispatch.status(staged).state()).isEqualTo(SubmissionStatus.State.STAGED);
    }

    // ---------------------------------------------------------------- helpers

    /** The submission (of a job of {@link #POLICY}) is refused with the message, and stages nothing. */
    private void rejected(ThrowingCallable submission, String message) {
        long before = db.staged(POLICY);
        assertThatThrownBy(submission).isInstanceOf(SubmissionRejectedException.class).hasMessageContaining(message);
        assertThat(db.staged(POLICY)).as("staged jobs of %s", POLICY).isEqualTo(before);
    }

    /** The first throwable of {@code type} in the failure's cause chain (an EJB's container may wrap what it throws). */
    /**
     * The failure itself, of the operator exception's type: the engine's beans declare Jakarta Batch's
     * exceptions application exceptions (ejb-jar.xml), so a caller gets them as the API names them, not
     * wrapped in an EJBException (which WildFly would also log as an ERROR).
     */
    private static <T extends Throwable> T causeOf(Throwable failure, Class<T> type) {
        if (type.isInstance(failure)) {
            return type.cast(failure);
        }
        throw new AssertionError("Expected " + type.getName() + " itself, not wrapped: " + failure, failure);
    }

    /** One iteration of the test's own, with the policy's partitions eligible (a denial's backoff lifted). */
    private void iterate(String policy) {
        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = ?", policy);
        ticks.iterate();
    }

    /** Iterates (a few times at most) until every submission is admitted. */
    private void iterateUntilAdmitted(long... ids) {
        for (int i = 0; i < 10 && !states(ids).stream().allMatch(s -> s == SubmissionStatus.State.ADMITTED); i++) {
            iterate(POLICY);
            iterate(LANES);
        }
        assertThat(states(ids)).containsOnly(SubmissionStatus.State.ADMITTED);
    }

    private List<SubmissionStatus.State> states(long... ids) {
        return Arrays.stream(ids).mapToObj(id -> dispatch.status(id).state()).toList();
    }

    private long restartsStagedFor(long execution) {
        return db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE restart_of = ?", execution);
    }

    /** One watchdog pass of this test's own (the node's maintenance thread may hold the lock a moment). */
    private void pass() {
        await().atMost(Duration.ofSeconds(30)).until(() -> watchdog.pass() >= 0);
    }

    private static ScheduleDefinition every(String name, String job, int minutes) {
        return new ScheduleDefinition(name, job, Map.of("tenant", name), ANCHOR, minutes, ScheduleUnit.MINUTES, null,
                ZoneId.of("UTC"), null, null, false, true);
    }

    private void create(ScheduleDefinition d) {
        created.add(d.name());
        schedules.create(d, Operators.ADMIN);
    }

    /** A request to the console (a path under /dispatch/), with {@code user:password} as HTTP Basic when given. */
    private static HttpResponse<String> http(String method, String path, String credentials, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(CONSOLE + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (credentials != null) {
            request.header("Authorization", basic(credentials));
        }
        if (accept != null) {
            request.header("Accept", accept);
        }
        return send(request);
    }

    private static String basic(String credentials) {
        return ConsoleHttp.basic(credentials);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        return ConsoleHttp.send(request);
    }
}
