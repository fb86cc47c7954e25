package io.dispatchpolicy.application;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.persistence.AdmissionRepository;
import io.dispatchpolicy.infrastructure.persistence.InflightRepository;
import io.dispatchpolicy.infrastructure.persistence.JobInstances;
import io.dispatchpolicy.infrastructure.persistence.StagingRepository;
import io.dispatchpolicy.spi.JobsAdmitting.Admitted;
import io.dispatchpolicy.spi.RetryStrategy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Recovery of dead nodes' work, exactly once: each row is taken by one statement under row locks
 * ({@code SKIP LOCKED}), and a runner's start mark only succeeds for the row's owner.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DefaultRecoveryService implements RecoveryService {

    private static final Logger LOG = Logger.getLogger(DefaultRecoveryService.class.getName());

    /** Rows taken per transaction, so one recovery pass stays short. */
    static final int BATCH = 500;

    @Inject
    InflightRepository inflight;

    @Inject
    StagingRepository staging;

    @Inject
    AdmissionRepository admissions;

    @Inject
    JobInstances instances;

    @Inject
    ExecutionFactory executions;

    @Inject
    PolicyRegistry policies;

    @Inject
    ThisNode node;

    @Inject
    DispatchSettings settings;

    @Override
    public int recoverUnstarted() {
        List<Long> adopted = inflight.adoptUnstarted(node.id(), node.name(), settings.inflightStaleAfter(), BATCH);
        int resumed = 0;
        for (long executionId : adopted) {
            if (executions.resume(executionId, node.id())) {
                resumed++;
            } else {
                // Its execution is gone or no longer STARTING: nothing to start; the row is stale bookkeeping.
                inflight.forget(executionId);
            }
        }
        if (resumed > 0) {
            int count = resumed;
            LOG.info(() -> "Recovered " + count + " admitted execution(s) whose runner never started: " + adopted);
        }
        return adopted.size();
    }

    @Override
    public int releaseDeadNodesJobs() {
        List<InflightRepository.Released> released =
                inflight.releaseStartedOfDeadNodes(node.id(), node.name(), settings.inflightStaleAfter(), BATCH);
        for (InflightRepository.Released r : released) {
            ExecutionFactory.Abandoned abandoned = executions.failAbandoned(r.executionId(),
                    "FAILED by dispatch: the node running it stopped heartbeating");
            if (abandoned == null || !abandoned.interrupted()) {
                continue; // it ended before its node died; only its slot was left to free
            }
            String jobName = instances.jobName(r.executionId());
            RetryStrategy strategy = policies.effectiveIfDeclared(r.policyName())
                    .map(EffectivePolicy::retryStrategy).orElse(RetryStrategy.RESTAGE);
            if (strategy == RetryStrategy.BYPASS) {
                Properties params = new Properties();
                params.setProperty(io.dispatchpolicy.domain.model.JobParameters.SUBMISSION_ID, Long.toString(r.submissionId()));
                long restarted = executions.restart(r.executionId(), params, abandoned.user(), node.id(),
                        instances::latestExecution);
                admissions.record(r.partitionId(), node.id(), List.of(new Admitted(r.submissionId(), restarted, jobName)),
                        0, null, null, 0);
            } else {
                staging.restage(r.submissionId(), r.partitionId(), jobName, abandoned.user(), r.executionId());
            }
        }
        if (!released.isEmpty()) {
            LOG.warning(() -> "Released " + released.size() + " in-flight job(s) of dead nodes and restarted the "
                    + "interrupted ones: " + released.stream().map(InflightRepository.Released::executionId).toList());
        }
        return released.size();
    }
}
