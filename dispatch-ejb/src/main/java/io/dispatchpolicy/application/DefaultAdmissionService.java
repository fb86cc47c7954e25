package io.dispatchpolicy.application;

import io.dispatchpolicy.application.schedule.ScheduleChaining;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.domain.gate.DecayedAdmits;
import io.dispatchpolicy.domain.gate.GatePipeline;
import io.dispatchpolicy.domain.gate.ResolvedGate;
import io.dispatchpolicy.domain.gate.TokenBucket;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.LockedPartition;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.domain.shard.ShardScope;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.persistence.AdaptiveRepository;
import io.dispatchpolicy.infrastructure.persistence.AdmissionRepository;
import io.dispatchpolicy.infrastructure.persistence.CapacityRepository;
import io.dispatchpolicy.infrastructure.persistence.GateStateCodec;
import io.dispatchpolicy.infrastructure.persistence.InflightRepository;
import io.dispatchpolicy.infrastructure.persistence.JobInstances;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.PartitionRepository;
import io.dispatchpolicy.infrastructure.persistence.StagingRepository;
import io.dispatchpolicy.infrastructure.persistence.UnreadableStagedJob;
import io.dispatchpolicy.spi.JobsAdmitting;
import io.dispatchpolicy.spi.JobsAdmitting.Admitted;
import io.dispatchpolicy.infrastructure.metrics.EngineMetrics;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admission transaction, of one partition or of several small ones together. Its order matters: the partition row is locked first (the order staging
 * uses too, so the two never deadlock); the gates then see an in-flight count nobody else can raise
 * meanwhile; the staged rows are taken; JBeret's rows are written on the same connection; and only
 * then our bookkeeping, so a failure anywhere leaves every row as it was. Tokens are charged for the
 * jobs actually taken, not for what the gates allowed.
 */
// A singleton with bean-managed concurrency (it holds no state): the loops that call it name it in @DependsOn, so it stops only after they have.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DefaultAdmissionService implements AdmissionService {

    /** A partition whose gate parameters cannot be evaluated is looked at again after this long. */
    static final Duration BAD_PARAMETER_BACKOFF = Duration.ofSeconds(60);
    /** Half-life used for the decayed-admits figure of a policy without fairness (shown, not used). */
    static final double DEFAULT_HALF_LIFE_SECONDS = 60;

    @Inject
    EngineMetrics metrics;

    @Inject
    HistoryRecorder history;

    @Inject
    PartitionRepository partitions;

    @Inject
    StagingRepository staging;

    @Inject
    AdmissionRepository admissions;

    @Inject
    InflightRepository inflight;

    @Inject
    AdaptiveRepository adaptive;

    @Inject
    CapacityRepository capacity;

    @Inject
    ScheduleChaining chaining;

    @Inject
    JobInstances instances;

    @Inject
    ExecutionFactory executions;

    @Inject
    ThisNode node;

    @Inject
    HeldPolicies heldPolicies;

    @Inject
    DispatchSettings settings;

    @Inject
    Event<JobsAdmitting> admitting;

    @Override
    public int promoteDue(int limit) {
        return staging.promoteDue(limit);
    }

    @Override
    public List<StagingRepository.DueBypass> bypassedDue(int limit) {
        ShardScope scope = node.shards();
        return staging.bypassedDue(limit, scope.everyShard() ? null : scope.claimed());
    }

    @Override
    public boolean admitBypassed(StagingRepository.DueBypass due) {
        Optional<LockedPartition> lock = partitions.lock(due.partitionId());
        if (lock.isEmpty() || lock.get().paused()) {
            return false;
        }
        Optional<StagedJob> job = staging.takeBypassed(due.submissionId(), due.partitionId());
        if (job.isEmpty()) {
            return false;
        }
        Admitted admitted = new Admitted(job.get().submissionId(), create(job.get()), job.get().jobName());
        // it never was in the waiting set (pending 0) and passed no gate (no gate state, decayed admits unchanged)
        admissions.record(admitting(due.partitionId(), lock.get()), node.id(), List.of(admitted), List.of(job.get()), 0, null, null, 0, null,
                null);
        admitting.fire(new JobsAdmitting(lock.get().policyName(), lock.get().partitionKey(), List.of(admitted)));
        metrics.admittedOnCommit(lock.get().policyName(), lock.get().lane(), List.of(job.get()));
        history.admittedOnCommit(due.partitionId(), lock.get().policyName(), 1);
        return true;
    }

    @Override
    public void bypassRefused(long submissionId, String error) {
        staging.bypassRefused(submissionId, error);
    }

    @Override
    public List<ClaimedPartition> claim(int limit) {
        ShardScope scope = node.shards();
        if (scope.everyShard()) {
            return partitions.claim(limit);
        }
        List<ClaimedPartition> claimed = new ArrayList<>();
        for (String shard : scope.claimed()) {
            claimed.addAll(partitions.claimShard(shard, scope.share(limit)));
        }
        return claimed;
    }

    @Override
    public List<ClaimedPartition> claimLane(String policyName, String lane, int limit) {
        ShardScope scope = node.shards();
        if (scope.everyShard()) {
            return partitions.claimLane(policyName, lane, limit);
        }
        List<ClaimedPartition> claimed = new ArrayList<>();
        for (String shard : scope.claimed()) {
            claimed.addAll(partitions.claimLaneShard(policyName, lane, shard, scope.share(limit)));
        }
        return claimed;
    }

    @Override
    public AdmissionOutcome admit(ClaimedPartition partition, EffectivePolicy policy, int limit) {
        Optional<LockedPartition> lock = partitions.lock(partition.id());
        return lock.isEmpty() ? AdmissionOutcome.SKIPPED : admitLocked(partition.id(), lock.get(), policy, limit);
    }

    @Override
    public List<AdmissionOutcome> admitTogether(List<ClaimedPartition> claimed, EffectivePolicy policy, int limit) {
        if (policy.capacity().isPresent() || claimed.stream().anyMatch(p -> !p.lane().isEmpty())) {
            // the capacity's lock is taken after a partition's, and a lane row locks its key's gate row
            // first: neither order holds for several partitions locked together
            throw new IllegalArgumentException("Only partitions outside lanes of a policy without a capacity are admitted together");
        }
        Map<Long, LockedPartition> locked = partitions.lockTogether(claimed.stream().map(ClaimedPartition::id).toList());
        List<AdmissionOutcome> outcomes = new ArrayList<>(claimed.size());
        for (ClaimedPartition p : claimed) {
            LockedPartition l = locked.get(p.id());
            outcomes.add(l == null ? AdmissionOutcome.SKIPPED : admitLocked(p.id(), l, policy, limit));
        }
        return outcomes;
    }

    /** The gates, then the jobs they allow, of a partition whose row (and its key's gate row) this transaction holds. */
    private AdmissionOutcome admitLocked(long partitionId, LockedPartition locked, EffectivePolicy policy, int limit) {
        if (locked.paused()) {
            return AdmissionOutcome.SKIPPED;
        }
        int wanted = Math.min(limit, locked.pending());
        if (wanted <= 0) {
            return AdmissionOutcome.SKIPPED;
        }
        List<ResolvedGate> gates;
        try {
            gates = policy.resolveGates(JsonCodec.readScalars(locked.contextJson()));
        } catch (GateParameterException e) {
            return AdmissionOutcome.denied(GateParameterException.REASON, BAD_PARAMETER_BACKOFF);
        }
        long inFlight = policy.countsInFlight() ? inflight.count(locked.gateId()) : 0;
        Map<String, TokenBucket.State> buckets = GateStateCodec.readBuckets(locked.gateStateJson());
        Map<String, AdaptiveCap.State> adaptiveStates = policy.adaptiveGateIds().isEmpty() ? Map.of() : adaptive.load(locked.gateId());
        GatePipeline.Evaluation evaluation = GatePipeline.evaluate(gates, buckets, adaptiveStates, inFlight, locked.nowMillis(), wanted);
        if (evaluation.admit() == 0) {
            return AdmissionOutcome.denied(evaluation.reason(), evaluation.retryAfter());
        }
        int allowed = evaluation.admit();
        if (policy.capacity().isPresent()) {
            // after the partition's lock (every admission locks in this order) and only when the gates
            // allow: the capacity lock is held for the rest of this transaction
            long free = policy.capacity().getAsInt() - capacity.lockAndCount(locked.policyName());
            if (free <= 0) {
                return AdmissionOutcome.denied(Denial.CAPACITY_FULL, Duration.ZERO);
            }
            allowed = (int) Math.min(allowed, free);
        }

        List<StagedJob> jobs = take(partitionId, allowed);
        if (jobs.isEmpty()) {
            return AdmissionOutcome.SKIPPED;
        }
        seedAdaptive(locked.gateId(), gates);
        Map<String, TokenBucket.State> charged = new HashMap<>(buckets);
        charged.putAll(evaluation.charged(jobs.size()));
        // The gates' verdict on the next job, these admitted. A full concurrency gate backs the partition
        // off in this transaction: its jobs start only after the commit, so each one that ends finds the
        // backed-off row and wakes it. Written later (with the iteration's denials), the backoff could land
        // after the last of them had ended, and the partition would sit out its full-backoff with free slots.
        GatePipeline.Evaluation next = GatePipeline.evaluate(gates, charged, adaptiveStates, inFlight + jobs.size(),
                locked.nowMillis(), 1);
        AdmissionRepository.Waiting waiting = next.admit() > 0 || next.reason() == null ? null
                : new AdmissionRepository.Waiting(next.reason(), next.retryAfter().toMillis());
        int admitted = admitJobs(partitionId, locked, policy, jobs, GateStateCodec.writeBuckets(charged),
                bucketsFullAt(gates, charged), waiting);
        return AdmissionOutcome.admitted(admitted);
    }

    @Override
    public int forceAdmit(long partitionId, int count) {
        Optional<LockedPartition> lock = partitions.lockWaiting(partitionId);
        if (lock.isEmpty() || count <= 0) {
            return 0;
        }
        LockedPartition locked = lock.get();
        List<StagedJob> jobs = take(partitionId, count);
        if (!jobs.isEmpty()) {
            Optional<EffectivePolicy> policy = heldPolicies.effectiveIfDeclared(locked.policyName());
            return admitJobs(partitionId, locked, policy.orElse(null), jobs, null, null, null);
        }
        return 0;
    }

    private static AdmissionRepository.Admitting admitting(long partitionId, LockedPartition locked) {
        return new AdmissionRepository.Admitting(partitionId, locked.gateId(), locked.lane(), locked.policyName());
    }

    /** When the last of the partition's throttle buckets is full again; null without a throttle. */
    private static Long bucketsFullAt(List<ResolvedGate> gates, Map<String, TokenBucket.State> charged) {
        Long latest = null;
        for (ResolvedGate gate : gates) {
            if (gate instanceof ResolvedGate.Throttle t && charged.containsKey(t.id())) {
                long full = TokenBucket.fullAtMillis(charged.get(t.id()), t.rate(), t.perSeconds());
                latest = latest == null ? full : Math.max(latest, full);
            }
        }
        return latest;
    }

    /** The partition's next jobs (priority, then age); a row that cannot be read fails as that row's admission. */
    private List<StagedJob> take(long partitionId, int limit) {
        try {
            return staging.take(partitionId, limit);
        } catch (UnreadableStagedJob e) {
            throw new JobAdmissionException(e.submissionId(), e);
        }
    }

    /** JBeret's rows for every job, then our bookkeeping in one statement, then the observers. */
    /**
     * @param taken the jobs taken out of the partition; a schedule's occurrence taken too late to run
     *              (ScheduleChaining#withoutMissed) is skipped rather than admitted
     * @return how many were admitted
     */
    private int admitJobs(long partitionId, LockedPartition locked, EffectivePolicy policy, List<StagedJob> taken,
                          String chargedGateState, Long bucketsFullAtMillis, AdmissionRepository.Waiting next) {
        List<StagedJob> jobs = chaining.withoutMissed(locked, taken);
        List<Admitted> admitted = new ArrayList<>(jobs.size());
        for (StagedJob job : jobs) {
            admitted.add(new Admitted(job.submissionId(), create(job), job.jobName()));
        }
        chaining.admitted(locked, jobs, admitted);
        double halfLife = policy == null ? DEFAULT_HALF_LIFE_SECONDS
                : policy.fairnessHalfLife().map(d -> d.toMillis() / 1000.0).orElse(DEFAULT_HALF_LIFE_SECONDS);
        admissions.record(admitting(partitionId, locked), node.id(), admitted, jobs, taken.size(),
                chargedGateState,
                DecayedAdmits.add(locked.decayedAdmits(), locked.decayedAtMillis(), locked.nowMillis(), halfLife, jobs.size()),
                locked.nowMillis(), bucketsFullAtMillis, next);
        if (!admitted.isEmpty()) {
            admitting.fire(new JobsAdmitting(locked.policyName(), locked.partitionKey(), List.copyOf(admitted)));
            metrics.admittedOnCommit(locked.policyName(), locked.lane(), jobs);
            history.admittedOnCommit(partitionId, locked.policyName(), admitted.size());
        }
        return admitted.size();
    }

    private long create(StagedJob job) {
        try {
            if (job.restartOf() != null) {
                return executions.restart(job.restartOf(), job.parameters().toProperties(job.submissionId()),
                        job.submittedBy(), node.id(), instances::latestExecution);
            }
            return executions.create(job.jobName(), job.parameters().toProperties(job.submissionId()),
                    job.submittedBy(), node.id());
        } catch (RuntimeException e) {
            throw new JobAdmissionException(job.submissionId(), e);
        }
    }

    private void seedAdaptive(long partitionId, List<ResolvedGate> gates) {
        Map<String, Integer> seeds = new HashMap<>();
        for (ResolvedGate gate : gates) {
            if (gate instanceof ResolvedGate.Adaptive a) {
                seeds.put(a.id(), a.params().bounded(a.params().initialMax()));
            }
        }
        adaptive.seed(partitionId, seeds);
    }

    @Override
    public boolean failedAttempt(long submissionId, String error) {
        return staging.failedAttempt(submissionId, error, settings.admissionMaxAttempts());
    }

    @Override
    public void deny(List<Denial> denials) {
        partitions.deny(denials);
    }

    @Override
    public void markPaused(List<Long> partitionIds) {
        partitions.markPaused(partitionIds);
    }
}
