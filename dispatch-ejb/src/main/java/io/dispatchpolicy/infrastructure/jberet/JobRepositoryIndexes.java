package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The indexes JBeret's own queries need and its DDL lacks: a job instance's executions
 * ({@code JOB_EXECUTION.JOBINSTANCEID}: restarts, retries, the latest execution of an instance), an
 * execution's steps ({@code STEP_EXECUTION.JOBEXECUTIONID}: every restart and status read) and a step's
 * partitions; and the Jobs view's lookup of executions by a parameter (JBeret
 * stores parameters as {@code key = value} lines, so the lines' array is indexed, ADR 0017). Without them each of those reads scans a table that only grows, and admission slows as
 * executions accumulate. JBeret creates its tables itself, on first use, so they cannot come from our
 * migrations: the engine creates the indexes at boot, after checking the tables are there, under an
 * advisory lock (two nodes booting at once do not race on the catalog), and only where missing.
 */
@ApplicationScoped
public class JobRepositoryIndexes {

    // One statement, so one transaction: the lock is held until every index exists. A table already
    // indexed costs a catalog lookup; the first boot over a large repository builds them once.
    private static final Sql ENSURE = Sql.of("""
            DO $$
            BEGIN
                PERFORM pg_advisory_xact_lock(7346150345);
                CREATE INDEX IF NOT EXISTS dispatch_job_execution_instance_idx ON job_execution (jobinstanceid);
                CREATE INDEX IF NOT EXISTS dispatch_step_execution_execution_idx ON step_execution (jobexecutionid);
                CREATE INDEX IF NOT EXISTS dispatch_partition_execution_step_idx ON partition_execution (stepexecutionid);
                CREATE INDEX IF NOT EXISTS dispatch_job_execution_parameters_idx ON job_execution
                    USING gin (string_to_array(jobparameters, E'\n'));
            END
            $$
            """);

    @Inject
    Jdbc jdbc;

    /** The indexes over a database outside the container (the engine's PostgreSQL-only tests). */
    public static JobRepositoryIndexes over(Jdbc jdbc) {
        JobRepositoryIndexes indexes = new JobRepositoryIndexes();
        indexes.jdbc = jdbc;
        return indexes;
    }

    /** Creates the missing indexes on JBeret's tables (which {@link JobRepositoryCheck} has seen exist). */
    public void ensure() {
        jdbc.update(ENSURE, Params.of());
    }
}
