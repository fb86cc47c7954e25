package io.dispatchpolicy.it;

import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.jberet.job.model.Job;
import org.jberet.repository.ApplicationAndJobName;
import org.jberet.repository.JobRepository;
import org.jberet.runtime.JobExecutionImpl;
import org.jberet.runtime.JobInstanceImpl;
import org.jberet.spi.BatchEnvironment;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/** Database reads and fixtures for the system tests (also makes the test jar an EJB module). */
@Stateless
public class TestSupport {

    @Inject
    Jdbc jdbc;

    @Inject
    JobRuntime runtime;

    public long count(String sql, Object... args) {
        return query(sql, args, rs -> rs.getLong(1)).get(0);
    }

    public List<String> strings(String sql, Object... args) {
        return query(sql, args, rs -> rs.getString(1));
    }

    /** JBeret executions of a job, by the submission id the engine stored in their parameters. */
    public Map<Long, Integer> executionsPerSubmission(String jobName) {
        Map<Long, Integer> perSubmission = new HashMap<>();
        for (String parameters : strings("SELECT e.jobparameters FROM job_execution e JOIN job_instance i "
                + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ?", jobName)) {
            for (String line : parameters.split("\n")) {
                // JBeret stores parameters as "key = value" lines.
                if (line.startsWith("dispatch.submissionId = ")) {
                    perSubmission.merge(Long.parseLong(line.substring(line.indexOf('=') + 1).strip()), 1, Integer::sum);
                }
            }
        }
        return perSubmission;
    }

    private static final String EXECUTIONS_OF_JOB = "SELECT count(*) FROM job_execution e JOIN job_instance i "
            + "ON i.jobinstanceid = e.jobinstanceid WHERE i.jobname = ?";

    public long jobExecutions(String jobName) {
        return count(EXECUTIONS_OF_JOB, jobName);
    }

    public long completedExecutions(String jobName) {
        return count(EXECUTIONS_OF_JOB + " AND e.batchstatus = 'COMPLETED'", jobName);
    }

    /** The lane each staged job waits in, in the order of the submission ids given. */
    public List<String> stagedLanes(long... submissionIds) {
        List<String> lanes = new java.util.ArrayList<>();
        for (long id : submissionIds) {
            lanes.addAll(strings("SELECT p.lane FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                    + "WHERE s.id = ?", id));
        }
        return lanes;
    }

    public long staged(String jobName) {
        return count("SELECT count(*) FROM dispatch.staged_jobs WHERE job_name = ?", jobName);
    }

    /** Registers a node that died long ago; its rows are fair game for recovery. */
    public UUID deadNode(String name) {
        UUID id = UUID.randomUUID();
        update("INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at) "
                + "VALUES (?, ?, now() - interval '1 hour', now() - interval '1 hour')", id, name);
        return id;
    }

    /**
     * The state a node leaves when it dies between an admission's commit and handing the runner to
     * JBeret: committed JOB_INSTANCE/JOB_EXECUTION rows (STARTING) and an in-flight row it owns that
     * never started. Written in this method's JTA transaction, through JBeret's own repository.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long admittedButNeverSubmitted(String jobName, UUID deadNode) {
        Properties params = new Properties();
        params.setProperty("dispatch.submissionId", "42");
        JobExecutionImpl execution = newExecution(jobName, params);
        update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, node_id, admitted_at) "
                + "VALUES (?, 42, 0, ?, now())", execution.getExecutionId(), deadNode);
        return execution.getExecutionId();
    }

    /** A running job of {@code node}, as a crash leaves it: STARTED in JBeret, in flight and started. */
    public record Running(long submissionId, long executionId, long instanceId) {
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Running startedOn(UUID node, String policyAndJob, String tenant) {
        long partition = count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) "
                + "VALUES (?, ?, jsonb_build_object('tenant', ?::text)) ON CONFLICT (policy_name, partition_key, lane) "
                + "DO UPDATE SET context = EXCLUDED.context RETURNING id", policyAndJob, tenant, tenant);
        long submission = count("SELECT nextval('dispatch.submission_id_seq')");
        Properties params = new Properties();
        params.setProperty("dispatch.submissionId", Long.toString(submission));
        params.setProperty("tenant", tenant);
        JobExecutionImpl execution = newExecution(policyAndJob, params);
        execution.setBatchStatus(jakarta.batch.runtime.BatchStatus.STARTED);
        runtime.environment().getJobRepository().updateJobExecution(execution, false, false);
        update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at) VALUES (?, ?, ?, now())",
                submission, execution.getExecutionId(), partition);
        update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, gate_id, policy_name, node_id, "
                + "admitted_at, started_at) VALUES (?, ?, ?, ?, ?, ?, now() - interval '10 minutes', now() - interval '10 minutes')",
                execution.getExecutionId(), submission, partition, partition, policyAndJob, node);
        return new Running(submission, execution.getExecutionId(), execution.getJobInstance().getInstanceId());
    }

    /** A new instance and execution of the job, written through JBeret's own repository (caller's transaction). */
    private JobExecutionImpl newExecution(String jobName, Properties params) {
        BatchEnvironment env = runtime.environment();
        JobRepository repository = env.getJobRepository();
        Job job = runtime.loadJob(jobName);
        repository.addJob(new ApplicationAndJobName(env.getApplicationName(), job.getId()), job);
        JobInstanceImpl instance = repository.createJobInstance(job, env.getApplicationName(), env.getClassLoader());
        return repository.createJobExecution(instance, params);
    }

    /** Runs {@code work} in a transaction of its own whose statements may not use index scans. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void withSequentialScans(Runnable work) {
        update("SET LOCAL enable_indexscan = off");
        update("SET LOCAL enable_bitmapscan = off");
        update("SET LOCAL enable_indexonlyscan = off");
        work.run();
    }

    /** Runs {@code work} in a transaction of its own, committed when it returns. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void inTransactionOfItsOwn(Runnable work) {
        work.run();
    }

    /**
     * Runs {@code work} in a transaction of its own, rolled back afterwards, with the planner pushed
     * to re-scan a subquery per outer row (no hash or merge joins, no sorts, no materialization): the
     * plan a large table can get by itself.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public <T> T withRescanningPlansRolledBack(java.util.function.Supplier<T> work) {
        for (String setting : List.of("enable_hashjoin", "enable_mergejoin", "enable_sort", "enable_hashagg",
                "enable_material")) {
            update("SET LOCAL " + setting + " = off");
        }
        T result = work.get();
        context.setRollbackOnly();
        return result;
    }

    @jakarta.annotation.Resource
    jakarta.ejb.SessionContext context;

    public String batchStatus(long executionId) {
        return strings("SELECT batchstatus FROM job_execution WHERE jobexecutionid = ?", executionId).get(0);
    }

    public int update(String sql, Object... args) {
        return jdbc.update(sql, (c, st) -> bind(st, args));
    }

    private <T> List<T> query(String sql, Object[] args, Jdbc.RowMapper<T> mapper) {
        return jdbc.query(sql, (c, st) -> bind(st, args), mapper);
    }

    private static void bind(PreparedStatement s, Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, args[i]);
        }
    }
}
