package io.dispatchpolicy.staging;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Dead jobs: governed jobs whose execution failed after their policy's last retry. Written in the
 * transaction that frees the failed execution's slot; taken out when retried (the restage deletes the
 * row) or discarded by an operator (the console's DeadJobBrowser).
 */
@ApplicationScoped
public class DeadJobRepository {

    private static final String BURY = """
            INSERT INTO dispatch.dead_jobs (submission_id, partition_id, job_name, execution_id, attempts, priority,
                                            submitted_by, exit_status, error)
            VALUES (?, ?, ?, ?, ?, ?, ?, left(?, 2000), left(?, 8000))
            ON CONFLICT (submission_id) DO UPDATE
               SET execution_id = EXCLUDED.execution_id, attempts = EXCLUDED.attempts, exit_status = EXCLUDED.exit_status,
                   error = EXCLUDED.error, died_at = clock_timestamp()
            """;

    @Inject
    Jdbc jdbc;

    /** A dead job, as its last execution left it. */
    public record Burial(long submissionId, long partitionId, String jobName, long executionId, int attempts, int priority,
                         String submittedBy, String exitStatus, String error) {
    }

    public void bury(Burial b) {
        jdbc.update(BURY, (c, st) -> {
            st.setLong(1, b.submissionId());
            st.setLong(2, b.partitionId());
            st.setString(3, b.jobName());
            st.setLong(4, b.executionId());
            st.setInt(5, b.attempts());
            st.setInt(6, b.priority());
            st.setString(7, b.submittedBy());
            st.setString(8, b.exitStatus());
            st.setString(9, b.error());
        });
    }

    /** Forgets the dead job whose last execution this is (it is being restarted under a new submission). */
    public void revived(long executionId) {
        jdbc.update("DELETE FROM dispatch.dead_jobs WHERE execution_id = ?", (c, st) -> st.setLong(1, executionId));
    }
}
