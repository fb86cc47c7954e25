package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Reads JBeret's own tables where its repository's answer could come from its cache: the latest
 * execution of a job instance, which decides whether an execution may still be restarted.
 */
@ApplicationScoped
public class JobInstances {

    private static final String LATEST = """
            SELECT coalesce(max(jobexecutionid), 0) FROM job_execution WHERE jobinstanceid = ?
            """;

    private static final String JOB_OF_EXECUTION = """
            SELECT i.jobname FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid
             WHERE e.jobexecutionid = ?
            """;

    @Inject
    Jdbc jdbc;

    public long latestExecution(long instanceId) {
        return jdbc.query(LATEST, (c, st) -> st.setLong(1, instanceId), rs -> rs.getLong(1)).get(0);
    }

    /** The job name of an execution, or null when there is no such execution. */
    public String jobName(long executionId) {
        return jdbc.query(JOB_OF_EXECUTION, (c, st) -> st.setLong(1, executionId), rs -> rs.getString(1))
                .stream().findFirst().orElse(null);
    }
}
