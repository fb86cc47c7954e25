package io.dispatchpolicy.staging;

import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One call of more jobs than a statement stages ({@link StagingRepository#CHUNK}): every job staged once,
 * ids in the call's order across the statements, each job's parameters with its own id. (The system test
 * {@code BulkSubmissionIT} runs a bulk call's jobs through JBeret; this is the size it does not reach.)
 */
class BulkStagingTest {

    private static final String POLICY = "it-bulk-staging";
    private static final int JOBS = 2 * StagingRepository.CHUNK + 500;
    private static final int TENANTS = 50;
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final StagingRepository staging = new StagingRepository();

    @AfterEach
    void removeAll() {
        jdbc.update("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (SELECT id FROM dispatch.partitions WHERE policy_name = ?)",
                (c, ps) -> ps.setString(1, POLICY));
        jdbc.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", (c, ps) -> ps.setString(1, POLICY));
    }

    @Test
    void aCallOfMoreJobsThanAStatementTakesStagesEachOnceInOrderWithItsParameters() {
        staging.jdbc = jdbc;
        List<Submission> jobs = new ArrayList<>(JOBS);
        for (int i = 0; i < JOBS; i++) {
            Properties p = new Properties();
            String tenant = "tenant-" + (i % TENANTS);
            p.setProperty("tenant", tenant);
            p.setProperty("n", Integer.toString(i));
            jobs.add(new Submission("j", JobParameters.of(p), tenant, "", "{}", 0, null, null, tenant, "", 1, 0));
        }

        long[] ids = staging.stage(POLICY, "j", "u", jobs, null, null, JobTimeouts.NONE);

        assertThat(ids).hasSize(JOBS);
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).as("id %d after id %d", i, i - 1).isGreaterThan(ids[i - 1]);
        }
        // each statement's first and last job, and one in the middle, kept their own parameters
        for (int i : new int[] {0, StagingRepository.CHUNK - 1, StagingRepository.CHUNK, 2 * StagingRepository.CHUNK, JOBS / 2, JOBS - 1}) {
            assertThat(jdbc.query("SELECT job_parameters->>'n' FROM dispatch.staged_jobs WHERE id = ?",
                    (c, ps) -> ps.setLong(1, ids[i]), rs -> rs.getString(1))).as("job %d", i).containsExactly(Integer.toString(i));
        }
        assertThat(count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = ?")).isEqualTo(JOBS);
        assertThat(count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = ?")).isEqualTo(TENANTS);
    }

    private long count(String sql) {
        return jdbc.query(sql, (c, ps) -> ps.setString(1, POLICY), rs -> rs.getLong(1)).get(0);
    }
}
