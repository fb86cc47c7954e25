package io.dispatchpolicy.infrastructure.jberet;

import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import org.jberet.repository.JobExecutionSelector;
import org.jberet.repository.JobRepository;

import java.util.Collection;
import java.util.Set;

/**
 * Removes executions and instances from JBeret's in-memory repository, never from its tables. JBeret keeps
 * what it created or read in soft-referenced maps, which a collection clears only under memory pressure.
 */
public final class JBeretCache {

    private JBeretCache() {
    }

    /** Forgets these executions and instances; one pass over JBeret's execution cache, however many ids. */
    public static void forget(JobRepository repository, Set<Long> executionIds, Collection<Long> instanceIds) {
        if (!executionIds.isEmpty()) {
            repository.removeJobExecutions(new ByIds(executionIds));
        }
        instanceIds.forEach(repository::removeJobInstance);
    }

    /** Selects cached executions by id; JBeret's own selector cannot be configured from outside its package. */
    private record ByIds(Set<Long> ids) implements JobExecutionSelector {
        @Override
        public boolean select(JobExecution jobExecution, Collection<Long> allJobExecutionIds) {
            return ids.contains(jobExecution.getExecutionId());
        }

        @Override
        public JobContext getJobContext() {
            return null;
        }

        @Override
        public void setJobContext(JobContext jobContext) {
            // not used by an id selector
        }

        @Override
        public StepContext getStepContext() {
            return null;
        }

        @Override
        public void setStepContext(StepContext stepContext) {
            // not used by an id selector
        }
    }
}
