package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.node.DatabaseOutage;
import jakarta.annotation.Resource;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jberet.creation.ArtifactFactoryWrapper;
import org.jberet.job.model.Job;
import org.jberet.repository.JobRepository;
import org.jberet.runtime.JobExecutionImpl;
import org.jberet.runtime.JobInstanceImpl;
import org.jberet.runtime.context.JobContextImpl;
import org.jberet.runtime.runner.JobExecutionRunner;
import org.jberet.spi.BatchEnvironment;

import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.function.LongUnaryOperator;

/**
 * Creates JBeret job executions inside the current JTA transaction, the way
 * {@code AbstractJobOperator.start} and {@code restart} do but without suspending the transaction:
 * JBeret's JDBC repository then writes JOB_INSTANCE and JOB_EXECUTION on the connection the
 * transaction already enlisted, so they commit or roll back with the staging and admission rows. The
 * runner is handed to JBeret only after commit ({@link LaunchOnCommit}).
 */
@ApplicationScoped
public class ExecutionFactory {

    private static final Object LAUNCH_KEY = new Object();
    /** Statuses an execution whose runner never ran can have. */
    private static final java.util.Set<BatchStatus> NEVER_RAN =
            java.util.EnumSet.of(BatchStatus.STARTING, BatchStatus.STOPPING, BatchStatus.STOPPED);

    @Inject
    JobRuntime runtime;

    @Inject
    RunnerLifecycle lifecycle;

    @Inject
    LocalRunners runners;

    @Inject
    DatabaseOutage outage;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /**
     * Creates a job instance and a STARTING execution for the job; its runner is submitted when the
     * current transaction commits, and runs as {@code node}.
     *
     * @param threads the batch threads the job takes at its widest (its cost, ADR 0035): what its runner holds of the node
     * @return the execution id
     */
    public long create(String jobName, Properties parameters, String user, UUID node, int threads) {
        LaunchOnCommit launch = launchForThisTransaction();
        BatchEnvironment env = launch.environment();
        JobRepository repository = env.getJobRepository();
        Job job = runtime.loadJob(jobName);
        JobInstanceImpl instance = repository.createJobInstance(job, env.getApplicationName(), env.getClassLoader());
        launch.instanceCreated(instance.getInstanceId());
        JobExecutionImpl execution = repository.createJobExecution(instance, parameters);
        launch.executionCreated(execution.getExecutionId());
        execution.setUser(user);
        launch.launch(task(env, repository, execution, null, node, threads));
        return execution.getExecutionId();
    }

    /**
     * Creates the next execution of a FAILED or STOPPED execution's job instance, as
     * {@code JobOperator.restart} does: its parameters are the original's overlaid with
     * {@code restartParameters}, and it resumes from the original's restart point (a chunk step from
     * its last checkpoint).
     *
     * @param mostRecent the id of the latest execution of the original's job instance, from the database
     * @param threads    the batch threads the job takes at its widest (its cost, ADR 0035)
     * @return the new execution id
     * @throws JobRestartException when the original cannot be restarted
     */
    public long restart(long originalId, Properties restartParameters, String user, UUID node, LongUnaryOperator mostRecent,
                        int threads) {
        LaunchOnCommit launch = launchForThisTransaction();
        BatchEnvironment env = launch.environment();
        JobRepository repository = env.getJobRepository();
        JobExecutionImpl original = (JobExecutionImpl) repository.getJobExecution(originalId);
        if (original == null) {
            throw new NoSuchJobExecutionException("No job execution " + originalId + " to restart");
        }
        BatchStatus status = original.getBatchStatus();
        if (status != BatchStatus.FAILED && status != BatchStatus.STOPPED) {
            throw new JobRestartException("Execution " + originalId + " is " + status + "; only FAILED or STOPPED restart");
        }
        if (Job.UNRESTARTABLE.equals(original.getRestartPosition())) {
            throw new JobRestartException("Execution " + originalId + " belongs to a job declared restartable=false");
        }
        JobInstanceImpl instance = original.getJobInstance();
        long latest = mostRecent.applyAsLong(instance.getInstanceId());
        if (latest != originalId) {
            throw new JobRestartException("Execution " + originalId + " is not the latest of its job instance (" + latest + " is)");
        }
        Properties previous = Optional.ofNullable(original.getJobParameters()).orElseGet(Properties::new);
        String jobXml = previous.getProperty(Job.JOB_XML_NAME, instance.getJobName());
        if (instance.getUnsubstitutedJob() == null) {
            instance.setUnsubstitutedJob(runtime.loadJob(jobXml));
        }
        Properties combined = new Properties();
        previous.stringPropertyNames().forEach(k -> combined.setProperty(k, previous.getProperty(k)));
        combined.remove(Job.JOB_XML_NAME);
        restartParameters.stringPropertyNames().forEach(k -> combined.setProperty(k, restartParameters.getProperty(k)));
        JobExecutionImpl restarted = repository.createJobExecution(instance, combined);
        launch.executionCreated(restarted.getExecutionId());
        restarted.setUser(user);
        launch.launch(task(env, repository, restarted, original, node, threads));
        return restarted.getExecutionId();
    }

    /** An execution whose runner is gone: the status it had, and the user it ran for. */
    public record Abandoned(BatchStatus was, String user, JobExecutionImpl execution) {
        /** True when it was still running, so it was failed now and should be restarted. */
        public boolean interrupted() {
            return was == BatchStatus.STARTING || was == BatchStatus.STARTED || was == BatchStatus.STOPPING;
        }
    }

    /**
     * Settles an execution whose runner is gone (its node died, or a database outage cut the runner
     * off from its bookkeeping), in the current transaction: one still running by JBeret's record is
     * marked FAILED; one that ended is written back as JBeret knows it, because a runner in this JVM
     * may have ended it in memory while the database could not take the write.
     *
     * @return what it was; null when JBeret has no such execution
     */
    public Abandoned failAbandoned(long executionId, String reason) {
        LaunchOnCommit launch = launchForThisTransaction();
        JobRepository repository = launch.environment().getJobRepository();
        JobExecutionImpl execution = (JobExecutionImpl) repository.getJobExecution(executionId);
        if (execution == null) {
            return null;
        }
        Abandoned abandoned = new Abandoned(execution.getBatchStatus(), execution.getUser(), execution);
        write(launch, execution, abandoned.interrupted() ? reason : null);
        return abandoned;
    }

    /**
     * Records an execution its runner has just ended as FAILED with {@code exitStatus} as its exit status, in
     * the current transaction: a timed-out job stopped (or interrupted) by the watchdog (ADR 0030). Written
     * after JBeret's own last write of it, so nothing of JBeret's overwrites it.
     */
    public void recordFailed(JobExecutionImpl execution, String exitStatus) {
        write(launchForThisTransaction(), execution, exitStatus);
    }

    /**
     * Writes JBeret's record of an execution as its cached copy holds it, FAILED with {@code failedWith} as exit
     * status first when that is given, in the current transaction (the copy is forgotten if it rolls back).
     */
    private static void write(LaunchOnCommit launch, JobExecutionImpl execution, String failedWith) {
        launch.executionTouched(execution.getExecutionId());
        if (failedWith != null) {
            execution.setBatchStatus(BatchStatus.FAILED);
            execution.setExitStatus(failedWith);
        }
        launch.environment().getJobRepository().updateJobExecution(execution, true, false);
    }

    /**
     * Prepares to run an execution that was committed but whose runner never started (its node died
     * between commit and submit, or a database outage cut the runner off before its start mark). The
     * runner is submitted when the current transaction commits.
     *
     * <p>The caller holds the in-flight row whose {@code started_at} is still empty, which proves no
     * runner ever ran the job; so a STOPPING or STOPPED status here is a stop that reached it while it
     * was queued — a server shutdown stops every STARTING execution of its jobs — and it still runs.
     *
     * @param submitter who submitted it (the admission's record), as it runs: JBeret's row has no user yet
     * @param threads   the batch threads the job takes at its widest (its cost, ADR 0035)
     * @return false when the execution is gone or ended otherwise (abandoned), so there is nothing to resume
     */
    public boolean resume(long executionId, UUID node, String submitter, int threads) {
        LaunchOnCommit launch = launchForThisTransaction();
        BatchEnvironment env = launch.environment();
        JobRepository repository = env.getJobRepository();
        JobExecutionImpl stored = (JobExecutionImpl) repository.getJobExecution(executionId);
        if (stored == null || !NEVER_RAN.contains(stored.getBatchStatus())) {
            return false;
        }
        JobInstanceImpl instance = stored.getJobInstance();
        String jobXml = Optional.ofNullable(stored.getJobParameters())
                .map(p -> p.getProperty(Job.JOB_XML_NAME)).orElse(instance.getJobName());
        instance.setUnsubstitutedJob(runtime.loadJob(jobXml));
        // A stored execution carries no parsed job; this copy does, under the stored id, so the runner
        // updates the existing row instead of creating a new execution.
        JobExecutionImpl resumed = new JobExecutionImpl(instance, stored.getJobParameters());
        resumed.setId(executionId);
        // JBeret records the user only once a runner has run: a never-started execution runs as its submitter
        resumed.setUser(stored.getUser() != null ? stored.getUser() : submitter);
        launch.launch(task(env, repository, resumed, null, node, threads));
        return true;
    }

    private TrackedJobTask task(BatchEnvironment env, JobRepository repository, JobExecutionImpl execution,
                                JobExecutionImpl restartOf, UUID node, int threads) {
        JobContextImpl context = new JobContextImpl(execution, restartOf,
                new ArtifactFactoryWrapper(env.getArtifactFactory()), repository, env);
        // Held before the transaction can commit: a committed in-flight row always has its runner held.
        runners.hold(execution.getExecutionId(), threads);
        return new TrackedJobTask(new JobExecutionRunner(context), execution, node, lifecycle, runners, outage);
    }

    private LaunchOnCommit launchForThisTransaction() {
        // Without an active transaction JBeret's repository would autocommit each row: refuse instead.
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("JBeret executions must be created inside an active JTA transaction");
        }
        LaunchOnCommit launch = (LaunchOnCommit) transactions.getResource(LAUNCH_KEY);
        if (launch == null) {
            launch = new LaunchOnCommit(runtime.environment(), runners);
            transactions.putResource(LAUNCH_KEY, launch);
            transactions.registerInterposedSynchronization(launch);
        }
        return launch;
    }
}
