package io.dispatchpolicy.staging;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Dead jobs: governed jobs whose execution failed after their policy's last retry. Written in the
 * transaction that frees the failed execution's slot; taken out when retried (the restage deletes the
 * row) or discarded by an operator (the console's DeadJobBrowser).
 */
@ApplicationScoped
public class DeadJobRepository {

    private static final Sql BURY = Sql.of("""
            INSERT INTO dispatch.dead_jobs (submission_id, partition_id, job_name, execution_id, attempts, priority,
                                            submitted_by, exit_status, error)
            VALUES (:submission, :partition, :jobName, :execution, :attempts, :priority, :submittedBy, left(:exitStatus, 2000),
                    left(:error, 8000))
            ON CONFLICT (submission_id) DO UPDATE
               SET execution_id = EXCLUDED.execution_id, attempts = EXCLUDED.attempts, exit_status = EXCLUDED.exit_status,
                   error = EXCLUDED.error, died_at = clock_timestamp()
            """);

    private static final Sql REVIVED = Sql.of("DELETE FROM dispatch.dead_jobs WHERE execution_id = :execution");

    @Inject
    Jdbc jdbc;

    public void bury(DeadJob b) {
        jdbc.update(BURY, Params.of().bigint("submission", b.submissionId()).bigint("partition", b.partitionId())
                .text("jobName", b.jobName()).bigint("execution", b.executionId()).integer("attempts", b.attempts())
                .integer("priority", b.priority()).text("submittedBy", b.submittedBy()).text("exitStatus", b.exitStatus())
                .text("error", b.error()));
    }

    /** Forgets the dead job whose last execution this is (it is being restarted under a new submission). */
    public void revived(long executionId) {
        jdbc.update(REVIVED, Params.of().bigint("execution", executionId));
    }
}
