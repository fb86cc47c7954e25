package io.dispatchpolicy.infrastructure.jberet;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import org.jberet.repository.JobRepository;
import org.jberet.spi.BatchEnvironment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One per transaction that creates JBeret executions. After commit it hands the runners to JBeret's
 * thread pool; after rollback it evicts what JBeret cached for the rolled-back rows, or
 * {@code getJobExecution(id)} would keep returning a phantom STARTING execution with no row behind it.
 */
final class LaunchOnCommit implements Synchronization {

    private static final Logger LOG = Logger.getLogger(LaunchOnCommit.class.getName());

    private final BatchEnvironment environment;
    private final JobRepository repository;
    private final List<TrackedJobTask> tasks = new ArrayList<>();
    private final Set<Long> createdInstances = new HashSet<>();
    private final Set<Long> createdExecutions = new HashSet<>();
    private final LocalRunners runners;

    LaunchOnCommit(BatchEnvironment environment, LocalRunners runners) {
        this.environment = environment;
        this.repository = environment.getJobRepository();
        this.runners = runners;
    }

    BatchEnvironment environment() {
        return environment;
    }

    void instanceCreated(long instanceId) {
        createdInstances.add(instanceId);
    }

    void executionCreated(long executionId) {
        createdExecutions.add(executionId);
    }

    /** An existing execution this transaction changed through JBeret's cache; evicted on rollback. */
    void executionTouched(long executionId) {
        createdExecutions.add(executionId);
    }

    void launch(TrackedJobTask task) {
        tasks.add(task);
    }

    @Override
    public void beforeCompletion() {
        // nothing to do before the outcome is known
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED) {
            submitAll();
        } else {
            tasks.forEach(task -> runners.release(task.executionId()));
            evict();
        }
    }

    private void submitAll() {
        // afterCompletion runs on the committing thread, whose context class loader may be anyone's.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(environment.getClassLoader());
        try {
            for (TrackedJobTask task : tasks) {
                try {
                    // handed over as its submitter: WildFly runs the job as the identity current here
                    SubmitterIdentity.run(environment, task.user(), () -> environment.submitTask(task));
                } catch (RuntimeException e) {
                    // The rows are committed and this runner never runs: unheld, its row is an orphan
                    // that this node's next reconcile starts.
                    runners.release(task.executionId());
                    LOG.log(runners.closing() ? Level.FINE : Level.WARNING, e, () -> "Could not submit execution "
                            + task.executionId() + " to the batch thread pool; recovery will start it");
                }
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void evict() {
        JBeretCache.forget(repository, createdExecutions, createdInstances);
    }
}
