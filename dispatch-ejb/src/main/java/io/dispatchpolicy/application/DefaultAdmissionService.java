package io.dispatchpolicy.application;

import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.persistence.AdmissionRepository;
import io.dispatchpolicy.infrastructure.persistence.PartitionRepository;
import io.dispatchpolicy.infrastructure.persistence.StagingRepository;
import io.dispatchpolicy.spi.JobsAdmitting;
import io.dispatchpolicy.spi.JobsAdmitting.Admitted;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * The admission transaction. Its order matters: the partition row is locked first (the same order
 * staging uses, so the two never deadlock), then the staged rows are taken, then JBeret's rows are
 * written on the same connection, and only then our own bookkeeping, so a failure anywhere leaves
 * every row as it was.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DefaultAdmissionService implements AdmissionService {

    @Inject
    PartitionRepository partitions;

    @Inject
    StagingRepository staging;

    @Inject
    AdmissionRepository admissions;

    @Inject
    ExecutionFactory executions;

    @Inject
    ThisNode node;

    @Inject
    Event<JobsAdmitting> admitting;

    @Override
    public List<ClaimedPartition> claim(int limit) {
        return partitions.claim(limit);
    }

    @Override
    public int admit(ClaimedPartition partition, int limit) {
        if (!partitions.lock(partition.id())) {
            return 0;
        }
        List<StagedJob> jobs = staging.take(partition.id(), limit);
        if (jobs.isEmpty()) {
            return 0;
        }
        List<Admitted> admitted = new ArrayList<>(jobs.size());
        for (StagedJob job : jobs) {
            long executionId = executions.create(job.jobName(), job.parameters().toProperties(job.submissionId()),
                    job.submittedBy(), node.id());
            admitted.add(new Admitted(job.submissionId(), executionId, job.jobName()));
        }
        admissions.record(partition.id(), node.id(), admitted);
        admitting.fire(new JobsAdmitting(partition.policyName(), partition.partitionKey(), List.copyOf(admitted)));
        return admitted.size();
    }
}
