package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.RepositoryHealth;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.upkeep.Sweeper;
import jakarta.inject.Inject;
import org.jberet.repository.JobRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retention of JBeret's executions (ADR 0015): finished job instances past their retention go with their
 * executions, steps and submission records; nothing that can still be restarted goes; {@code off} keeps
 * everything; the dashboard says how many were pruned.
 */
class RetentionIT extends SystemTest {

    private static final String JOB = "it-retention";

    @Inject
    DispatchOperator dispatch;

    @Inject
    Sweeper sweeper;

    @Inject
    DeadJobControl deadJobs;

    @Inject
    Monitoring monitoring;

    @Inject
    JobRuntime jobs;

    @AfterEach
    void putTheRetentionBack() {
        System.clearProperty("dispatch.execution-retention");
        System.clearProperty("dispatch.failed-execution-retention");
    }

    @Test
    void finishedInstancesPastTheirRetentionArePrunedAndNothingRestartableIs() {
        System.setProperty("dispatch.execution-retention", "off");
        System.setProperty("dispatch.failed-execution-retention", "off");
        long[] completed = submit("retention-ok", 3, false);
        long[] failed = submit("retention-failing", 1, true);
        await().atMost(Duration.ofMinutes(2)).until(() -> db.count("SELECT count(*) FROM job_execution e JOIN job_instance i "
                + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ? AND e.endtime IS NOT NULL", JOB) == 4);
        await().atMost(Duration.ofSeconds(30)).until(() -> db.count(
                "SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = ?", failed[0]) == 1);
        List<Long> okExecutions = executions(completed);
        long failedExecution = executions(failed).get(0);
        assertThat(db.count("SELECT count(*) FROM step_execution WHERE jobexecutionid = ANY(?)", (Object) okExecutions.toArray(new Long[0])))
                .isEqualTo(3);
        long prunedBefore = monitoring.summary().repository().executionsPruned();

        // off: a sweep keeps them all, however old
        sweepUntilIdle();
        assertThat(instancesOf(okExecutions)).isEqualTo(3);

        // JBeret holds the finished executions in memory (and answers from there, whatever its tables say)
        JobRepository repository = jobs.environment().getJobRepository();
        assertThat(okExecutions).allSatisfy(id -> assertThat(repository.getJobExecution(id)).isNotNull());

        // one second: the completed ones go, with their steps and submission records
        System.setProperty("dispatch.execution-retention", "1");
        System.setProperty("dispatch.failed-execution-retention", "1");
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> {
            sweeper.sweep();
            return instancesOf(okExecutions) == 0;
        });
        Long[] ok = okExecutions.toArray(new Long[0]);
        assertThat(db.count("SELECT count(*) FROM job_execution WHERE jobexecutionid = ANY(?)", (Object) ok)).isZero();
        assertThat(db.count("SELECT count(*) FROM step_execution WHERE jobexecutionid = ANY(?)", (Object) ok)).isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions WHERE execution_id = ANY(?)", (Object) ok)).isZero();
        // and from JBeret's memory: a long-running server does not keep every execution it ever ran
        assertThat(okExecutions).allSatisfy(id -> assertThat(repository.getJobExecution(id)).isNull());
        // the dead job may still be retried by an operator: its execution stays
        sweepUntilIdle();
        assertThat(instancesOf(List.of(failedExecution))).isEqualTo(1);

        RepositoryHealth health = monitoring.summary().repository();
        assertThat(health.executionsPruned() - prunedBefore).isGreaterThanOrEqualTo(3);
        assertThat(health.lastPrunedAt()).isNotNull();
        assertThat(health.retention()).isEqualTo("1 s after completion, 1 s otherwise");

        // discarded, nothing can restart it any more: it goes too
        assertThat(deadJobs.discard(List.of(failed[0]), Operators.ADMIN)).isEqualTo(1);
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> {
            sweeper.sweep();
            return instancesOf(List.of(failedExecution)) == 0;
        });
    }

    private long[] submit(String tenant, int count, boolean fail) {
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(Params.of("tenant", tenant, "fail", Boolean.toString(fail)));
        }
        return dispatch.submitAll(JOB, jobs);
    }

    private List<Long> executions(long[] submissionIds) {
        List<Long> executions = new ArrayList<>();
        for (long id : submissionIds) {
            executions.add(dispatch.status(id).executionId().orElseThrow());
        }
        return executions;
    }

    /** Job instances the executions belong to that are still in JBeret's repository. */
    private long instancesOf(List<Long> executionIds) {
        return db.count("SELECT count(DISTINCT i.jobinstanceid) FROM job_instance i JOIN job_execution e "
                + "ON e.jobinstanceid = i.jobinstanceid WHERE e.jobexecutionid = ANY(?)", (Object) executionIds.toArray(new Long[0]));
    }

    /** Sweeps until a sweep deletes nothing (or another node's sweep holds the lock). */
    private void sweepUntilIdle() {
        for (int i = 0; i < 1_000 && sweeper.sweep() > 0; i++) {
            // keep going while there is something to delete
        }
    }
}
