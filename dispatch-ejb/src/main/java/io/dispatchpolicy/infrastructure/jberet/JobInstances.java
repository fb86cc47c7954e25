package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Reads JBeret's own tables where its repository's answer could come from its cache: the latest
 * execution of a job instance, which decides whether an execution may still be restarted.
 */
@ApplicationScoped
public class JobInstances {

    private static final Sql LATEST = Sql.of("""
            SELECT coalesce(max(jobexecutionid), 0) FROM job_execution WHERE jobinstanceid = :instance
            """);

    private static final Sql JOB_OF_EXECUTION = Sql.of("""
            SELECT i.jobname FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid
             WHERE e.jobexecutionid = :execution
            """);

    @Inject
    Jdbc jdbc;

    public long latestExecution(long instanceId) {
        return jdbc.query(LATEST, Params.of().bigint("instance", instanceId), rs -> rs.getLong(1)).get(0);
    }

    /** The job name of an execution, or null when there is no such execution. */
    public String jobName(long executionId) {
        return jdbc.query(JOB_OF_EXECUTION, Params.of().bigint("execution", executionId), rs -> rs.getString(1))
                .stream().findFirst().orElse(null);
    }
}
