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
 * automatic retry runs as the same submitter.
 */
class IdentityIT extends EngineTest {

    private static final String POLICY = "it-identity";

    @Inject
    JobRuntime runtime;

    @Inject
    io.dispatchpolicy.console.jobs.JobControl jobs;

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

    @Test
    void aRestartOfADeadJobByAnOperatorRunsAsTheSubmitterNotTheOperator() throws Exception {
        long submission = stageAs("reporter", "restart-reporter", "failTimes", "2");
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        // fails, is retried once, fails again: dead
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return db.count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", submission) == 1;
        });
        // restarted from the console by an operator (this thread is nobody in particular)
        assertThat(jobs.restart(submission, Operators.OPERATOR)).contains("staged again");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            ticks.iterate();
            return IdentityBatchlet.CALLERS.get("restart-reporter").size() == 3;
        });
        assertThat(IdentityBatchlet.CALLERS.get("restart-reporter")).containsExactly("reporter", "reporter", "reporter");
        await().atMost(Duration.ofSeconds(30)).until(() -> dispatch.status(submission).executionId().isPresent()
                && "COMPLETED".equals(db.batchStatus(dispatch.status(submission).executionId().getAsLong())));
    }
}
