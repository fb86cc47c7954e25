package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.List;
import java.util.logging.Logger;

@Stateless
public class DefaultDeadJobControl implements DeadJobControl {

    private static final Logger LOG = Logger.getLogger(DefaultDeadJobControl.class.getName());

    @Inject
    DeadJobBrowser dead;

    @Inject
    StagingRepository staging;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    TickSignal signal;

    @Override
    public List<DeadJobView> page(DeadJobQuery query) {
        return dead.page(query);
    }

    @Override
    public long count(DeadJobQuery query) {
        return dead.count(query);
    }

    @Override
    public int retryNow(List<Long> submissionIds) {
        List<DeadJobView> jobs = dead.lock(submissionIds);
        for (DeadJobView job : jobs) {
            boolean bypass = heldPolicies.effectiveIfDeclared(job.policyName())
                    .map(p -> p.retryStrategy() == RetryStrategy.BYPASS).orElse(false);
            // the restage deletes the dead row in the same statement
            staging.restage(new Restart(job.submissionId(), job.partitionId(), job.jobName(), job.executionId(),
                    job.submittedBy(), job.priority(), job.attempts() + 1, null, bypass));
        }
        if (!jobs.isEmpty()) {
            signal.workArrivesOnCommit();
            LOG.info(() -> "Retrying " + jobs.size() + " dead job(s) now: " + jobs.stream().map(DeadJobView::submissionId).toList());
        }
        return jobs.size();
    }

    @Override
    public int discard(List<Long> submissionIds) {
        List<Long> gone = dead.discard(submissionIds);
        if (!gone.isEmpty()) {
            LOG.info(() -> "Discarded " + gone.size() + " dead job(s): " + gone);
        }
        return gone.size();
    }
}
