package io.dispatchpolicy.infrastructure.jberet;

import jakarta.enterprise.context.ApplicationScoped;
import org.jberet.job.model.Job;
import org.jberet.operations.AbstractJobOperator;
import org.jberet.repository.ApplicationAndJobName;
import org.jberet.spi.BatchEnvironment;
import org.jberet.spi.JobOperatorContext;
import org.jberet.spi.JobXmlResolver;
import org.jberet.creation.ArchiveXmlLoader;

import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine module's JBeret runtime: WildFly's per-deployment {@code JobOperatorService} (an
 * {@link AbstractJobOperator}), its batch environment and job repository.
 *
 * <p>WildFly picks the operator by the thread's context class loader, one per sub-deployment. The
 * engine always uses the one of its own EJB jar, whatever thread asks, so every job it admits is
 * resolved against the same job XMLs: the EJB jar's, its EAR's libraries' and those of the EJB jars
 * it can see.
 */
@ApplicationScoped
public class JobRuntime {

    private volatile AbstractJobOperator operator;
    private final Set<String> knownJobXmls = ConcurrentHashMap.newKeySet();
    private final Map<String, Job> parsedJobs = new ConcurrentHashMap<>();

    private AbstractJobOperator operator() {
        AbstractJobOperator op = operator;
        if (op == null) {
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(JobRuntime.class.getClassLoader());
            try {
                op = (AbstractJobOperator) JobOperatorContext.getJobOperatorContext().getJobOperator();
            } finally {
                thread.setContextClassLoader(previous);
            }
            operator = op;
        }
        return op;
    }

    public BatchEnvironment environment() {
        return operator().getBatchEnvironment();
    }

    /** True when a job XML of that name (without {@code .xml}) is visible to the engine. */
    public boolean knowsJob(String jobName) {
        String xml = jobName + ".xml";
        if (knownJobXmls.contains(xml)) {
            return true;
        }
        BatchEnvironment env = environment();
        JobXmlResolver resolver = env.getJobXmlResolver();
        if (resolver.getJobXmlNames(env.getClassLoader()).contains(xml)) {
            knownJobXmls.add(xml);
            return true;
        }
        return false;
    }

    /**
     * Restarts an execution another server stranded and the engine marked FAILED in the repository's tables
     * (ADR 0032), with its own parameters, as {@code JobOperator.restart} does; this JVM's cached copy of it, read
     * while it still said STARTED, is forgotten first.
     *
     * @return the new execution's id
     */
    public long restartStranded(long executionId) {
        org.jberet.repository.JobRepository repository = environment().getJobRepository();
        JBeretCache.forget(repository, java.util.Set.of(executionId), java.util.List.of());
        jakarta.batch.runtime.JobExecution stranded = repository.getJobExecution(executionId);
        java.util.Properties parameters = stranded == null || stranded.getJobParameters() == null ? new java.util.Properties()
                : stranded.getJobParameters();
        return operator().restart(executionId, parameters);
    }

    /**
     * An execution's batch status as this JVM's JBeret holds it: for one running here, the running execution's own
     * (a stop asked of it shows at once as STOPPING).
     */
    public jakarta.batch.runtime.BatchStatus batchStatus(long executionId) {
        return environment().getJobRepository().getJobExecution(executionId).getBatchStatus();
    }

    /** Asks a running execution to stop, as {@code JobOperator.stop} does. */
    public void stop(long executionId) {
        operator().stop(executionId);
    }

    /**
     * The job XML parsed as {@code JobOperator.start} parses it, once per deployment and job name, and
     * registered with JBeret's repository (as its own start does). {@code start()} parses on every call;
     * the engine admits from thousands of partitions a second, a transaction or three jobs each, and one
     * parse per transaction cost more than the jobs' rows. Sharing is safe: every execution runs a clone
     * of it ({@code JobExecutionImpl} clones the instance's job before substituting properties), as
     * JBeret's own restart shares its cached one. A changed job XML comes with a redeployment, which
     * starts a new cache. A job XML that fails to parse is not cached.
     */
    public Job loadJob(String jobName) {
        return parsedJobs.computeIfAbsent(jobName, name -> {
            BatchEnvironment env = environment();
            Job job = ArchiveXmlLoader.loadJobXml(name, env.getClassLoader(), new ArrayList<>(), env.getJobXmlResolver());
            env.getJobRepository().addJob(new ApplicationAndJobName(env.getApplicationName(), job.getId()), job);
            return job;
        });
    }
}
