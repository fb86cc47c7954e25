package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.infrastructure.persistence.InflightRepository;
import jakarta.annotation.Resource;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jberet.creation.ArtifactFactoryWrapper;
import org.jberet.job.model.Job;
import org.jberet.repository.ApplicationAndJobName;
import org.jberet.repository.JobRepository;
import org.jberet.runtime.JobExecutionImpl;
import org.jberet.runtime.JobInstanceImpl;
import org.jberet.runtime.context.JobContextImpl;
import org.jberet.runtime.runner.JobExecutionRunner;
import org.jberet.spi.BatchEnvironment;

import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

/**
 * Creates JBeret job executions inside the current JTA transaction, the way
 * {@code AbstractJobOperator.start} does but without suspending the transaction: JBeret's JDBC
 * repository then writes JOB_INSTANCE and JOB_EXECUTION on the connection the transaction already
 * enlisted, so they commit or roll back with the staging and admission rows. The runner is handed to
 * JBeret only after commit ({@link LaunchOnCommit}).
 */
@ApplicationScoped
public class ExecutionFactory {

    private static final Object LAUNCH_KEY = new Object();

    @Inject
    JobRuntime runtime;

    @Inject
    InflightRepository inflight;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /**
     * Creates a job instance and a STARTING execution for the job; its runner is submitted when the
     * current transaction commits, and runs as {@code node}.
     *
     * @return the execution id
     */
    public long create(String jobName, Properties parameters, String user, UUID node) {
        LaunchOnCommit launch = launchForThisTransaction();
        BatchEnvironment env = launch.environment();
        JobRepository repository = env.getJobRepository();
        Job job = launch.job(jobName, name -> {
            Job loaded = runtime.loadJob(name);
            repository.addJob(new ApplicationAndJobName(env.getApplicationName(), loaded.getId()), loaded);
            return loaded;
        });
        JobInstanceImpl instance = repository.createJobInstance(job, env.getApplicationName(), env.getClassLoader());
        launch.instanceCreated(instance.getInstanceId());
        JobExecutionImpl execution = repository.createJobExecution(instance, parameters);
        launch.executionCreated(execution.getExecutionId());
        execution.setUser(user);
        launch.launch(task(env, repository, execution, node));
        return execution.getExecutionId();
    }

    /**
     * Prepares to run an execution that was committed but whose runner never started (its node died
     * between commit and submit). The runner is submitted when the current transaction commits.
     *
     * @return false when the execution is gone or no longer STARTING, so there is nothing to resume
     */
    public boolean resume(long executionId, UUID node) {
        LaunchOnCommit launch = launchForThisTransaction();
        BatchEnvironment env = launch.environment();
        JobRepository repository = env.getJobRepository();
        JobExecutionImpl stored = (JobExecutionImpl) repository.getJobExecution(executionId);
        if (stored == null || stored.getBatchStatus() != BatchStatus.STARTING) {
            return false;
        }
        JobInstanceImpl instance = stored.getJobInstance();
        String jobXml = Optional.ofNullable(stored.getJobParameters())
                .map(p -> p.getProperty(Job.JOB_XML_NAME)).orElse(instance.getJobName());
        instance.setUnsubstitutedJob(launch.job(jobXml, runtime::loadJob));
        // A stored execution carries no parsed job; this copy does, under the stored id, so the runner
        // updates the existing row instead of creating a new execution.
        JobExecutionImpl resumed = new JobExecutionImpl(instance, stored.getJobParameters());
        resumed.setId(executionId);
        resumed.setUser(stored.getUser());
        launch.launch(task(env, repository, resumed, node));
        return true;
    }

    private TrackedJobTask task(BatchEnvironment env, JobRepository repository, JobExecutionImpl execution, UUID node) {
        JobContextImpl context = new JobContextImpl(execution, null,
                new ArtifactFactoryWrapper(env.getArtifactFactory()), repository, env);
        return new TrackedJobTask(new JobExecutionRunner(context), execution.getExecutionId(), node, inflight);
    }

    private LaunchOnCommit launchForThisTransaction() {
        // Without an active transaction JBeret's repository would autocommit each row: refuse instead.
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("JBeret executions must be created inside an active JTA transaction");
        }
        LaunchOnCommit launch = (LaunchOnCommit) transactions.getResource(LAUNCH_KEY);
        if (launch == null) {
            launch = new LaunchOnCommit(runtime.environment());
            transactions.putResource(LAUNCH_KEY, launch);
            transactions.registerInterposedSynchronization(launch);
        }
        return launch;
    }
}
