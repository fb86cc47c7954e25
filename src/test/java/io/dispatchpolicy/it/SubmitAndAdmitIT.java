package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionStatus;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The whole path: submit → staged → admitted by the tick → COMPLETED, seen through the standard JobOperator. */
class SubmitAndAdmitIT extends SystemTest {

    @Inject
    @Governed
    JobOperator governed;

    @Inject
    DispatchOperator dispatch;

    @Test
    void governedJobIsStagedThenAdmittedAndCompletes() {
        long submission = governed.start("it-flow", Params.of("tenant", "acme", "report", "q3"));

        assertThat(DispatchOperator.isSubmissionId(submission)).isTrue();
        assertThat(dispatch.status(submission).state()).isIn(SubmissionStatus.State.STAGED, SubmissionStatus.State.ADMITTED);

        await().atMost(Duration.ofSeconds(30)).until(() ->
                governed.getJobExecution(submission).getBatchStatus() == BatchStatus.COMPLETED);

        SubmissionStatus status = dispatch.status(submission);
        assertThat(status.state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        long executionId = status.executionId().orElseThrow();
        assertThat(DispatchOperator.isSubmissionId(executionId)).isFalse();

        JobExecution execution = BatchRuntime.getJobOperator().getJobExecution(executionId);
        assertThat(execution.getBatchStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(execution.getJobName()).isEqualTo("it-flow");
        assertThat(execution.getJobParameters().getProperty("report")).isEqualTo("q3");
        assertThat(execution.getJobParameters().getProperty("dispatch.submissionId")).isEqualTo(Long.toString(submission));
        assertThat(Runs.of(executionId)).isEqualTo(1);

        assertThat(db.staged("it-flow")).isZero();
        assertThat(db.count("SELECT pending_count FROM dispatch.partitions WHERE policy_name = 'it-flow' AND partition_key = 'acme'"))
                .isZero();
        assertThat(db.count("SELECT total_admitted FROM dispatch.partitions WHERE policy_name = 'it-flow' AND partition_key = 'acme'"))
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE execution_id = ?", executionId) == 0);
    }

    @Test
    void stagedJobReadsAsStartingUnderItsSubmissionId() {
        // A partition in backoff is not claimed, so its job stays staged until the backoff is lifted.
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, next_eligible_at) "
                + "VALUES ('it-flow', 'frozen', now() + interval '1 hour')");
        long submission = governed.start("it-flow", Params.of("tenant", "frozen"));

        assertThat(dispatch.status(submission).state()).isEqualTo(SubmissionStatus.State.STAGED);
        JobExecution view = governed.getJobExecution(submission);
        assertThat(view.getExecutionId()).isEqualTo(submission);
        assertThat(view.getBatchStatus()).isEqualTo(BatchStatus.STARTING);
        assertThat(view.getStartTime()).isNull();
        assertThat(governed.getParameters(submission).getProperty("tenant")).isEqualTo("frozen");

        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = 'it-flow' AND partition_key = 'frozen'");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                governed.getJobExecution(submission).getBatchStatus() == BatchStatus.COMPLETED);
        assertThat(dispatch.status(submission).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
    }

    @Test
    void everyEnqueueRefreshesThePartitionContext() {
        governed.start("it-flow", Params.of("tenant", "globex", "plan", "basic"));
        governed.start("it-flow", Params.of("tenant", "globex", "plan", "premium"));
        assertThat(db.strings("SELECT context->>'plan' FROM dispatch.partitions WHERE policy_name = 'it-flow' "
                + "AND partition_key = 'globex'")).containsExactly("premium");
    }

    @Test
    void ungovernedJobStartsAtOnceInJBeret() {
        long executionId = governed.start("it-open", Params.of("tenant", "acme"));
        assertThat(DispatchOperator.isSubmissionId(executionId)).isFalse();
        assertThat(db.staged("it-open")).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                BatchRuntime.getJobOperator().getJobExecution(executionId).getBatchStatus() == BatchStatus.COMPLETED);
        assertThat(Runs.of(executionId)).isEqualTo(1);
    }
}
