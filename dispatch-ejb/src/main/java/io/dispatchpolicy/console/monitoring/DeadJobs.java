package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.spi.RetryStrategy;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.logging.Logger;

/**
 * Retrying and discarding dead jobs, in the caller's transaction, for the operator actions that do it
 * (the Dead view's, and a job's restart or discard on its own page); the caller checks and audits.
 */
@ApplicationScoped
public class DeadJobs {

    private static final Logger LOG = Logger.getLogger(DeadJobs.class.getName());

    @Inject
    DeadJobBrowser dead;

    @Inject
    StagingRepository staging;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    TickSignal signal;

    /** @return how many were dead and are staged again */
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

    /** @return how many were dead and are forgotten */
    public int discard(List<Long> submissionIds) {
        List<Long> gone = dead.discard(submissionIds);
        if (!gone.isEmpty()) {
            LOG.info(() -> "Discarded " + gone.size() + " dead job(s): " + gone);
        }
        return gone.size();
    }
}
