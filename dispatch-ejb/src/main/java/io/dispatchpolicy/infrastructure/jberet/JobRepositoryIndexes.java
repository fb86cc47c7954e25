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
 * advisory lock (two nodes booting at once do not race on the catalog), and only where missing. With them,
 * two columns of the engine's own on {@code JOB_EXECUTION} that record which server created each execution
 * (ADR 0032: the recovery of ungoverned executions a gone node stranded).
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
                -- Which server created an execution, and when by the database's clock (ADR 0032): filled by
                -- defaults, so JBeret's own INSERT records them. Rows older than the columns stay NULL (the
                -- defaults are set after the columns are added, so no existing row is given this server's name).
                IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'job_execution'::regclass
                                  AND attname = 'dispatch_node' AND NOT attisdropped) THEN
                    ALTER TABLE job_execution ADD COLUMN dispatch_node text, ADD COLUMN dispatch_created_at timestamptz;
                    ALTER TABLE job_execution ALTER COLUMN dispatch_node SET DEFAULT nullif(current_setting('application_name', true), ''),
                                              ALTER COLUMN dispatch_created_at SET DEFAULT clock_timestamp();
                END IF;
                -- The executions still running by JBeret's record: the stranded-execution pass reads only these.
                CREATE INDEX IF NOT EXISTS dispatch_job_execution_running_idx ON job_execution (jobexecutionid)
                    WHERE batchstatus IN ('STARTING', 'STARTED', 'STOPPING');
                -- The failed executions by their end: the Jobs view's "failed in the last hour" reads only these.
                CREATE INDEX IF NOT EXISTS dispatch_job_execution_failed_idx ON job_execution (endtime)
                    WHERE batchstatus = 'FAILED';
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
