package io.dispatchpolicy.console;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;

import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.admission.PolicyStateRepository;
import io.dispatchpolicy.console.monitoring.PartitionBrowser;
import io.dispatchpolicy.domain.model.LockedPartition;
import io.dispatchpolicy.domain.model.Overrides;
import io.dispatchpolicy.domain.model.Partition;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.partition.OverrideCodec;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.admission.ForcedAdmission;
import io.dispatchpolicy.admission.JobAdmissionException;
import io.dispatchpolicy.node.ServerSuspension;
import io.dispatchpolicy.staging.StagingRepository;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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

    @Inject
    PartitionRepository partitions;

    @Inject
    PartitionBrowser browser;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    PolicyStateRepository policyState;

    @Inject
    TickSignal signal;

    @Inject
    io.dispatchpolicy.partition.PartitionPauses pauses;

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

    @Override
    public String pause(long partitionId, java.time.Instant until, String reason, Actor actor) {
        return audited.act(actor, OperatorAction.PARTITION_PAUSE, String.valueOf(partitionId), () -> {
            java.time.Instant now = java.time.Instant.now();
            if (until == null || !until.isAfter(now)) {
                throw new OverrideRefused("until", "until " + until + " is not in the future (now " + now + ")");
            }
            if (until.isAfter(now.plus(io.dispatchpolicy.api.SubmitOption.HORIZON))) {
                throw new OverrideRefused("until", "until " + until + " is more than " + io.dispatchpolicy.api.SubmitOption.HORIZON.toDays()
                        + " days ahead");
            }
            if (reason == null || reason.isBlank() || reason.strip().length() > 500) {
                throw new OverrideRefused("reason", "a reason of 1 to 500 characters is required: the partition's \"why waiting\" shows it");
            }
            String why = "paused by " + actor.name() + ": " + reason.strip();
            io.dispatchpolicy.partition.PartitionPauses.Paused paused = pauses.pauseKey(partitionId, until, why)
                    .orElseThrow(() -> OverrideRefused.noPartition(partitionId));
            LOG.info(() -> "Partition '" + paused.partitionKey() + "' of policy '" + paused.policyName() + "' " + why + ", until " + paused.until());
            return "paused until " + paused.until() + ": " + reason.strip();
        }, after -> after);
    }

    @Override
    public boolean resume(long partitionId, Actor actor) {
        return audited.act(actor, OperatorAction.PARTITION_RESUME, String.valueOf(partitionId), () -> {
            boolean was = pauses.resumeKey(partitionId);
            if (was) {
                signal.workArrivesOnCommit();
            }
            return was;
        }, was -> was ? "resumed" : "was not paused");
    }

    @Override
    public String setOverride(long partitionId, OverrideChange change, Actor actor) {
        return audited.act(actor, OperatorAction.PARTITION_OVERRIDE, String.valueOf(partitionId),
                () -> inForce(partitionId, change.kind(), change.scope(), change.param()),
                () -> set(partitionId, change, actor), after -> after);
    }

    @Override
    public boolean clearOverride(long partitionId, String kind, String scope, String param, Actor actor) {
        return audited.act(actor, OperatorAction.PARTITION_OVERRIDE, String.valueOf(partitionId),
                () -> inForce(partitionId, kind, scope, param),
                () -> clear(partitionId, kind, scope, param),
                cleared -> cleared ? kind + " " + scope + " " + param + ": cleared, the policy's value applies"
                        : kind + " " + scope + " " + param + ": none was in force");
    }

    /**
     * A gate override is written on the key's gate row under the partition's admission lock (so no admission
     * of the key runs with half of it); a lane override on the policy's row, locked before anything else —
     * as a pause locks it — so the two never wait on each other in a cycle.
     */
    private String set(long partitionId, OverrideChange change, Actor actor) {
        if (OverrideChange.LANE.equals(change.kind())) {
            Partition p = partition(partitionId);
            Overrides current = OverrideCodec.read(policyState.lockLaneOverrides(p.getPolicyName()));
            EffectivePolicy policy = policy(p.getPolicyName());
            long now = System.currentTimeMillis();
            OverrideRules.check(policy, p.getLane(), Map.of(), current, change, now);
            policyState.setLaneOverrides(p.getPolicyName(),
                    OverrideCodec.write(current.with(change.scope(), change.param(), entry(change, actor, now), now)));
            signal.workArrivesOnCommit();
            LOG.info(() -> "Override set by " + actor.name() + ": " + describe(change, policy.name()));
            return describe(change, policy.name());
        }
        LockedPartition locked = partitions.lockWaiting(partitionId).orElseThrow(() -> gone(partitionId));
        EffectivePolicy policy = policy(locked.policyName());
        long now = locked.nowMillis();
        Overrides current = OverrideCodec.read(locked.overridesJson());
        OverrideRules.check(policy, locked.lane(), JsonCodec.readScalars(locked.contextJson()), current, change, now);
        partitions.setOverrides(locked.gateId(),
                OverrideCodec.write(current.with(change.scope(), change.param(), entry(change, actor, now), now)));
        signal.workArrivesOnCommit();
        LOG.info(() -> "Override set by " + actor.name() + " for partition " + partitionId + ": " + describe(change, policy.name()));
        return describe(change, policy.name());
    }

    private boolean clear(long partitionId, String kind, String scope, String param) {
        if (OverrideChange.LANE.equals(kind)) {
            Partition p = partition(partitionId);
            Overrides current = OverrideCodec.read(policyState.lockLaneOverrides(p.getPolicyName()));
            long now = System.currentTimeMillis();
            boolean was = current.entry(scope, param, now).isPresent();
            policyState.setLaneOverrides(p.getPolicyName(), OverrideCodec.write(current.without(scope, param, now)));
            signal.workArrivesOnCommit();
            return was;
        }
        if (!OverrideChange.GATE.equals(kind)) {
            throw new OverrideRefused("kind", "Kind must be 'gate' or 'lane', was '" + kind + "'");
        }
        LockedPartition locked = partitions.lockWaiting(partitionId).orElseThrow(() -> gone(partitionId));
        Overrides current = OverrideCodec.read(locked.overridesJson());
        boolean was = current.entry(scope, param, locked.nowMillis()).isPresent();
        partitions.setOverrides(locked.gateId(), OverrideCodec.write(current.without(scope, param, locked.nowMillis())));
        signal.workArrivesOnCommit();
        return was;
    }

    /** The override in force before the action, in words, for the audit log. */
    private String inForce(long partitionId, String kind, String scope, String param) {
        Partition p = browser.find(partitionId);
        if (p == null) {
            return null;
        }
        String json = OverrideChange.LANE.equals(kind) ? policyState.laneOverrides(p.getPolicyName())
                : partitions.overridesOf(partitionId);
        return OverrideCodec.read(json).entry(scope, param, System.currentTimeMillis())
                .map(e -> kind + " " + scope + " " + param + " " + EffectivePolicy.number(e.value())
                        + (e.untilMillis() == null ? "" : " until " + java.time.Instant.ofEpochMilli(e.untilMillis()))
                        + " (override by " + e.by() + ")")
                .orElse(kind + " " + scope + " " + param + ": the policy's value");
    }

    private static Overrides.Entry entry(OverrideChange change, Actor actor, long now) {
        return new Overrides.Entry(change.value(), change.until() == null ? null : change.until().toEpochMilli(), actor.name(), now);
    }

    private static String describe(OverrideChange change, String policy) {
        return change.kind() + " " + change.scope() + " " + change.param() + " " + EffectivePolicy.number(change.value())
                + (change.until() == null ? " until cleared" : " until " + change.until())
                + (OverrideChange.LANE.equals(change.kind()) ? " (every partition of lane '" + change.scope() + "' of policy '"
                + policy + "')" : "");
    }

    private Partition partition(long partitionId) {
        Partition p = browser.find(partitionId);
        if (p == null) {
            throw gone(partitionId);
        }
        return p;
    }

    private EffectivePolicy policy(String name) {
        return heldPolicies.effectiveIfDeclared(name).orElseThrow(() -> new OverrideRefused("partition",
                "Policy '" + name + "' is not declared by this deployment, or is held by a bad setting: nothing to override"));
    }

    private static OverrideRefused gone(long partitionId) {
        return OverrideRefused.noPartition(partitionId);
    }
}
