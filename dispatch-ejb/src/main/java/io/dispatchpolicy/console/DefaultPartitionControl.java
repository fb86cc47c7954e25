package io.dispatchpolicy.console;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;

import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.admission.ForcedAdmission;
import io.dispatchpolicy.admission.JobAdmissionException;
import io.dispatchpolicy.node.ServerSuspension;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

@Stateless
public class DefaultPartitionControl implements PartitionControl {

    private static final Logger LOG = Logger.getLogger(DefaultPartitionControl.class.getName());
    /** Failed rounds allowed beyond one per job: enough to park every poison job at the default limit. */
    private static final int MAX_FAILED_ROUNDS = 1_000;

    /** What a force-admit says while the server is suspended (ADR 0021). */
    static final String SUSPENDED = "The server is suspended: nothing is admitted until it resumes.";

    @Inject
    AdmissionService admission;

    @Inject
    ServerSuspension suspension;

    @Inject
    StagingRepository staging;

    @Inject
    Audited audited;

    @Override
    public ForcedAdmission forceAdmit(long partitionId, int count, Actor actor) {
        return audited.act(actor, OperatorAction.PARTITION_FORCE_ADMIT, String.valueOf(partitionId),
                () -> forceAdmit(partitionId, count), f -> f.refused() != null ? f.refused()
                        : "asked " + count + ": " + f.admitted() + " admitted, " + f.parked() + " parked");
    }

    private ForcedAdmission forceAdmit(long partitionId, int count) {
        int admitted = 0;
        Set<Long> parked = new LinkedHashSet<>();
        List<String> failures = new ArrayList<>();
        // Each round admits what it can in one transaction; a job that fails rolls its round back, is
        // counted (and parked at the limit), and the next round starts over without it once parked.
        int rounds = 0;
        while (admitted < count && rounds++ < count + MAX_FAILED_ROUNDS) {
            try {
                int want = count - admitted;
                Optional<Integer> round = suspension.whileAdmitting(() -> admission.forceAdmit(partitionId, want));
                if (round.isEmpty()) {
                    if (admitted == 0) {
                        return ForcedAdmission.refused(SUSPENDED);
                    }
                    break;
                }
                int n = round.get();
                admitted += n;
                if (n == 0) {
                    break;
                }
            } catch (JobAdmissionException e) {
                String error = String.valueOf(e.getCause());
                if (admission.failedAttempt(e.submissionId(), error)) {
                    parked.add(e.submissionId());
                    failures.add("job " + e.submissionId() + ": " + error);
                }
            }
        }
        int total = admitted;
        LOG.info(() -> "Force-admitted " + total + " job(s) of partition " + partitionId
                + (parked.isEmpty() ? "" : "; parked " + parked));
        return new ForcedAdmission(admitted, parked.size(), List.copyOf(failures), null);
    }

    @Override
    public int drain(long partitionId, Actor actor) {
        return audited.act(actor, OperatorAction.PARTITION_DRAIN, String.valueOf(partitionId), () -> {
            int drained = staging.drainPartition(partitionId);
            LOG.info(() -> "Drained partition " + partitionId + " (" + actor.name() + "): " + drained + " staged job(s) deleted");
            return drained;
        }, n -> n + " staged job(s) deleted");
    }
}
