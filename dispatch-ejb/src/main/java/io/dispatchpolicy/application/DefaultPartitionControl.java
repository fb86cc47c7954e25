package io.dispatchpolicy.application;

import io.dispatchpolicy.infrastructure.persistence.StagingRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.logging.Logger;

@Stateless
public class DefaultPartitionControl implements PartitionControl {

    private static final Logger LOG = Logger.getLogger(DefaultPartitionControl.class.getName());

    @Inject
    AdmissionService admission;

    @Inject
    StagingRepository staging;

    @Override
    public int forceAdmit(long partitionId, int count) {
        int admitted = admission.forceAdmit(partitionId, count);
        LOG.info(() -> "Force-admitted " + admitted + " job(s) of partition " + partitionId);
        return admitted;
    }

    @Override
    public int drain(long partitionId) {
        int drained = staging.drainPartition(partitionId);
        LOG.info(() -> "Drained partition " + partitionId + ": " + drained + " staged job(s) deleted");
        return drained;
    }
}
