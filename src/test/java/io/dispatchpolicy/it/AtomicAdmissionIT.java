package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionStatus;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A fault after JBeret's INSERT inside the admission transaction: the staged rows stay, no
 * JOB_EXECUTION row survives, no runner starts, and JBeret shows no phantom execution.
 */
class AtomicAdmissionIT extends SystemTest {

    @Inject
    DispatchOperator dispatch;

    @Inject
    @Governed
    JobOperator governed;

    @Test
    void faultAfterJBeretInsertLeavesNoTraceAndLosesNoJob() {
        AdmissionFault.arm("it-atomic");
        long[] ids = dispatch.submitAll("it-atomic",
                List.of(Params.of("tenant", "t1"), Params.of("tenant", "t1"), Params.of("tenant", "t1")));

        // The tick keeps trying every second; let it fail twice.
        await().atMost(Duration.ofSeconds(30)).until(() -> AdmissionFault.attempts() >= 2);

        Set<Long> rolledBack = AdmissionFault.executionsRolledBack();
        assertThat(rolledBack).hasSizeGreaterThanOrEqualTo(3);
        assertThat(db.staged("it-atomic")).isEqualTo(3);
        assertThat(db.jobExecutions("it-atomic")).isZero();
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobexecutionid = ANY(?)",
                (Object) rolledBack.toArray(new Long[0]))).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions WHERE submission_id = ANY(?)", (Object) boxed(ids))).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.inflight_jobs WHERE submission_id = ANY(?)", (Object) boxed(ids))).isZero();
        assertThat(db.count("SELECT pending_count FROM dispatch.partitions WHERE policy_name = 'it-atomic' AND partition_key = 't1'"))
                .isEqualTo(3);
        for (long id : ids) {
            assertThat(dispatch.status(id).state()).isEqualTo(SubmissionStatus.State.STAGED);
        }
        JobOperator jberet = BatchRuntime.getJobOperator();
        for (long execution : rolledBack) {
            assertThat(Runs.of(execution)).isZero();
            assertThatThrownBy(() -> jberet.getJobExecution(execution)).isInstanceOf(NoSuchJobExecutionException.class);
        }

        AdmissionFault.disarm("it-atomic");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Arrays.stream(ids).allMatch(id -> governed.getJobExecution(id).getBatchStatus() == BatchStatus.COMPLETED));
        Map<Long, Integer> perSubmission = db.executionsPerSubmission("it-atomic");
        assertThat(perSubmission).containsOnlyKeys(Arrays.stream(ids).boxed().toList());
        assertThat(perSubmission.values()).containsOnly(1);
        for (long id : ids) {
            assertThat(Runs.of(dispatch.status(id).executionId().orElseThrow())).isEqualTo(1);
            assertThat(rolledBack).doesNotContain(dispatch.status(id).executionId().orElseThrow());
        }
    }

    private static Long[] boxed(long[] ids) {
        return Arrays.stream(ids).boxed().toArray(Long[]::new);
    }
}
