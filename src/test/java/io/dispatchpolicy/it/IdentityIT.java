package io.dispatchpolicy.it;

import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.jberet.SubmitterIdentity;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A governed job runs as the user who submitted it (ADR 0024): its batchlet calls an EJB only the role
 * "reports" may call. Submitted by a user with that role it completes, and the container names the
 * submitter as the caller; submitted by a user without it, the call is refused and the job fails; an
 * automatic retry runs as the same submitter; schedules run as their creator or the user they name; a user
 * the realm does not know runs as nobody in particular, and the job still runs.
 */
class IdentityIT extends EngineTest {

    private static final String POLICY = "it-identity";

    @Inject
    JobRuntime runtime;

    @Inject
    io.dispatchpolicy.console.jobs.JobControl jobs;

    @Inject
    io.dispatchpolicy.console.schedule.ScheduleControl schedules;

    @Inject
    io.dispatchpolicy.schedule.ScheduleWatchdog watchdog;

    private long stageAs(String user, String tenant, String... params) throws Exception {
        return SubmitterIdentity.call(runtime.environment(), user, () -> stage(POLICY, tenant, 1, params))[0];
    }

    @Test
    void aJobRunsAsItsSubmitterWithTheRolesTheRealmGivesThem() throws Exception {
        long byReporter = stageAs("reporter", "as-reporter");
        long byPlain = stageAs("plain", "as-plain");
        assertThat(db.strings("SELECT submitted_by FROM dispatch.staged_jobs WHERE id = ?", byReporter)).containsExactly("reporter");
        assertThat(db.strings("SELECT submitted_by FROM dispatch.staged_jobs WHERE id = ?", byPlain)).containsExactly("plain");

        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(60)).until(() -> dispatch.status(byReporter).executionId().isPresent()
                && "COMPLETED".equals(db.batchStatus(dispatch.status(byReporter).executionId().getAsLong())));
        assertThat(IdentityBatchlet.CALLERS.get("as-reporter")).containsExactly("reporter");

        // refused, retried once (a second later) as the same user, refused again: dead
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", byPlain) == 1;
        });
        assertThat(IdentityBatchlet.CALLERS.get("as-plain")).containsExactly("refused: EJBAccessException", "refused: EJBAccessException");
        assertThat(db.strings("SELECT exit_status FROM dispatch.dead_jobs WHERE submission_id = ?", byPlain))
                .containsExactly("REFUSED EJBAccessException");
    }

    @Test
    void anAutomaticRetryRunsAsTheSameSubmitter() throws Exception {
        long submission = stageAs("reporter", "retry-reporter", "failTimes", "1");
        assertThat(ticks.iterate().admitted()).isEqualTo(1);

        // the retry is due a second after the failure; the tick is this test's to drive
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            var latest = dispatch.status(submission).executionId();
            return IdentityBatchlet.CALLERS.getOrDefault("retry-reporter", List.of()).size() == 2 && latest.isPresent()
                    && "COMPLETED".equals(db.batchStatus(latest.getAsLong()));
        });
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobinstanceid = (SELECT jobinstanceid FROM job_execution "
                + "WHERE jobexecutionid = ?)", dispatch.status(submission).executionId().getAsLong())).isEqualTo(2);
        assertThat(IdentityBatchlet.CALLERS.get("retry-reporter")).isEqualTo(List.of("reporter", "reporter"));
    }

    /**
     * Elytron's brute-force protection counts an authentication context closed without success as a failed
     * login: run-as identities built that way disabled a user after ten of their jobs (their jobs lost their
     * roles, and they could not log in). Fifteen jobs keep the submitter's roles, and the user still logs in.
     */
    @Test
    void manyJobsOfOneSubmitterKeepTheirRolesAndTheSubmitterCanStillLogIn() throws Exception {
        List<Long> submissions = new java.util.ArrayList<>();
        for (int i = 0; i < 15; i++) {
            submissions.add(stageAs("reporter", "many-reporter"));
        }
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return IdentityBatchlet.CALLERS.getOrDefault("many-reporter", List.of()).size() == 15;
        });
        assertThat(IdentityBatchlet.CALLERS.get("many-reporter")).hasSize(15).containsOnly("reporter");
        // authenticated (no console role, so refused), not locked out (401)
        assertThat(ConsoleHttp.get("api/summary", "reporter:reporter-secret").statusCode()).isEqualTo(403);
        assertThat(submissions).hasSize(15);
    }

    @Test
    void aRestartOfADeadJobByAnOperatorRunsAsTheSubmitterNotTheOperator() throws Exception {
        long submission = stageAs("reporter", "restart-reporter", "failTimes", "2");
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", submission) == 1;
        });
        assertThat(jobs.restart(submission, Operators.OPERATOR)).contains("staged again");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return IdentityBatchlet.CALLERS.get("restart-reporter").size() == 3;
        });
        assertThat(IdentityBatchlet.CALLERS.get("restart-reporter")).containsExactly("reporter", "reporter", "reporter");
    }

    @Test
    void aConsoleCreatedScheduleRunsAsWhoeverCreatedItWhoeverRunsIt() {
        var d = new io.dispatchpolicy.domain.schedule.ScheduleDefinition("id-console", POLICY, java.util.Map.of("tenant", "sched-console"),
                java.time.Instant.parse("2026-01-01T00:00:00Z"), 1, io.dispatchpolicy.spi.ScheduleUnit.DAYS, null,
                java.time.ZoneId.of("UTC"), null, null, false, true);
        try {
            schedules.create(d, io.dispatchpolicy.console.audit.Actor.of("reporter", io.dispatchpolicy.console.audit.ConsoleRole.ADMIN));
            assertThat(schedules.schedule("id-console").orElseThrow().definition().runAs()).isEqualTo("reporter");
            long extra = schedules.runNow("id-console", Operators.OPERATOR);
            assertThat(db.strings("SELECT submitted_by FROM dispatch.staged_jobs WHERE id = ?", extra)).containsExactly("reporter");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
                ticks.iterate();
                return IdentityBatchlet.CALLERS.getOrDefault("sched-console", List.of()).size() == 1;
            });
            assertThat(IdentityBatchlet.CALLERS.get("sched-console")).containsExactly("reporter");
        } finally {
            deleteSchedules(schedules, List.of("id-console"));
        }
    }

    @Test
    void aScheduleDeclaredInStandaloneXmlRunsAsTheUserItNames() {
        set("dispatch.schedule.id-config.job", POLICY);
        set("dispatch.schedule.id-config.cron", "0 0 1 1 *");
        set("dispatch.schedule.id-config.param.tenant", "sched-config");
        set("dispatch.schedule.id-config.run-as", "reporter");
        await().atMost(Duration.ofSeconds(30)).until(() -> watchdog.pass() >= 0
                && schedules.schedule("id-config").map(s -> "reporter".equals(s.definition().runAs())).orElse(false));

        long extra = schedules.runNow("id-config", Operators.OPERATOR);
        assertThat(db.strings("SELECT submitted_by FROM dispatch.staged_jobs WHERE id = ?", extra)).containsExactly("reporter");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return IdentityBatchlet.CALLERS.getOrDefault("sched-config", List.of()).size() == 1;
        });
        assertThat(IdentityBatchlet.CALLERS.get("sched-config")).containsExactly("reporter");
    }

    @Test
    void aSubmitterTheRealmDoesNotKnowRunsAsNobodyAndTheJobStillRunsOnce() {
        var d = new io.dispatchpolicy.domain.schedule.ScheduleDefinition("id-ghost", POLICY, java.util.Map.of("tenant", "sched-ghost"),
                java.time.Instant.parse("2026-01-01T00:00:00Z"), 1, io.dispatchpolicy.spi.ScheduleUnit.DAYS, null,
                java.time.ZoneId.of("UTC"), null, null, false, true);
        try {
            schedules.create(d, io.dispatchpolicy.console.audit.Actor.of("ghost-user", io.dispatchpolicy.console.audit.ConsoleRole.ADMIN));
            long extra = schedules.runNow("id-ghost", Operators.OPERATOR);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
                ticks.iterate();
                return IdentityBatchlet.CALLERS.getOrDefault("sched-ghost", List.of()).size() == 1;
            });
            // no role, so the bean refuses; it ran (once), rather than never
            assertThat(IdentityBatchlet.CALLERS.get("sched-ghost")).containsExactly("refused: EJBAccessException");
            assertThat(db.strings("SELECT submitted_by FROM dispatch.admissions WHERE submission_id = ?", extra))
                    .containsExactly("ghost-user");
        } finally {
            deleteSchedules(schedules, List.of("id-ghost"));
        }
    }
}
