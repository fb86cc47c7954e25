package io.dispatchpolicy.admission;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.domain.gate.DecayedAdmits;
import io.dispatchpolicy.domain.gate.GateCheck;
import io.dispatchpolicy.domain.gate.GatePipeline;
import io.dispatchpolicy.domain.gate.GroupLimits;
import io.dispatchpolicy.domain.gate.SharedLimits;
import io.dispatchpolicy.domain.gate.ResolvedGate;
import io.dispatchpolicy.domain.gate.CalendarQuota;
import io.dispatchpolicy.domain.gate.TokenBucket;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.lane.LaneLimits;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.LockedPartition;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.infrastructure.jberet.ExecutionFactory;
import io.dispatchpolicy.infrastructure.jberet.JobInstances;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.observe.HistoryRecorder;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.GateParameterException;
import io.dispatchpolicy.partition.OverrideCodec;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.schedule.ScheduleChaining;
import io.dispatchpolicy.spi.JobsAdmitting.Admitted;
import io.dispatchpolicy.spi.JobsAdmitting;
import io.dispatchpolicy.staging.StagingRepository;
import io.dispatchpolicy.staging.UnreadableStagedJob;
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
import java.util.LinkedHashMap;
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
    LimitRepository limitRows;

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
    AdmissionTake taking;

    @Inject
    Event<JobsAdmitting> admitting;



    @Override
    public boolean admitBypassed(DueBypass due) {
        Optional<LockedPartition> lock = partitions.lock(due.partitionId());
        if (lock.isEmpty() || lock.get().paused()) {
            return false;
        }
        Optional<StagedJob> job = taking.takeBypassed(due.submissionId(), due.partitionId());
        if (job.isEmpty()) {
            return false;
        }
        Admitted admitted = new Admitted(job.get().submissionId(), create(job.get()), job.get().jobName());
        // it never was in the waiting set (pending 0) and passed no gate (no gate state, decayed admits unchanged)
        EffectivePolicy policy = heldPolicies.effectiveIfDeclared(lock.get().policyName()).orElse(null);
        record(List.of(new Admission(lock.get(), new AdmissionRepository.Recording(admitting(due.partitionId(), lock.get()),
                List.of(admitted), List.of(job.get()), 0, null, null, 0, null, null, timeoutsOf(policy, List.of(job.get())),
                usageHalfLife(policy), limitKeysOf(policy, lock.get())))));
        return true;
    }

    @Override
    public void bypassRefused(long submissionId, String error) {
        taking.bypassRefused(submissionId, error);
    }



    @Override
    public AdmissionOutcome admit(ClaimedPartition partition, EffectivePolicy policy, int jobs, int slots, int room) {
        Optional<LockedPartition> lock = partitions.lock(partition.id());
        return lock.isEmpty() ? AdmissionOutcome.SKIPPED
                : admitLocked(Map.of(partition.id(), lock.get()), policy, jobs, slots, room).get(partition.id());
    }

    @Override
    public List<AdmissionOutcome> admitTogether(List<ClaimedPartition> claimed, EffectivePolicy policy, int jobs, int slots,
                                                int room) {
        if (policy.capacity().isPresent() || claimed.stream().anyMatch(p -> !p.lane().isEmpty())) {
            // the capacity's lock is taken after a partition's, and a lane row locks its key's gate row first:
            // neither order holds for several partitions locked together (shared limits' does: every key of the
            // group is locked in one statement once all its partitions are, see limited)
            throw new IllegalArgumentException("Only partitions outside lanes of a policy without a capacity are admitted together");
        }
        Map<Long, LockedPartition> locked = partitions.lockTogether(claimed.stream().map(ClaimedPartition::id).toList());
        Map<Long, LockedPartition> inOrder = new LinkedHashMap<>();
        claimed.stream().filter(p -> locked.containsKey(p.id())).forEach(p -> inOrder.put(p.id(), locked.get(p.id())));
        Map<Long, AdmissionOutcome> outcomes = admitLocked(inOrder, policy, jobs, slots, room);
        return claimed.stream().map(p -> outcomes.getOrDefault(p.id(), AdmissionOutcome.SKIPPED)).toList();
    }

    /**
     * The gates, then the jobs they allow, of partitions whose rows (and their keys' gate rows) this
     * transaction holds: each partition's gates in Java, then one statement takes every partition's jobs,
     * JBeret's rows for each job, and one statement records them all — the statements of a group admitted
     * together are paid per group, not per partition (ADR 0016). Slots are batch threads: a job takes its
     * cost of the gates, the capacity and the node's room (ADR 0035).
     *
     * @return each partition's outcome
     */
    private Map<Long, AdmissionOutcome> admitLocked(Map<Long, LockedPartition> locked, EffectivePolicy policy, int atMost, int slots,
                                                    int room) {
        Map<Long, AdmissionOutcome> outcomes = new HashMap<>();
        Map<Long, Allowed> allowed = new LinkedHashMap<>();
        for (Map.Entry<Long, LockedPartition> e : locked.entrySet()) {
            Allowed a = allow(e.getValue(), policy, atMost, room);
            if (a.outcome() != null) {
                outcomes.put(e.getKey(), a.outcome());
            } else {
                allowed.put(e.getKey(), a);
            }
        }
        // a group reads the keys without their locks and takes them only before recording, on what it took (below)
        boolean lockLate = locked.size() > 1;
        GroupLimits limits = policy.limits().isEmpty() || allowed.isEmpty() ? null : limited(policy, allowed, slots, outcomes, !lockLate);
        if (allowed.isEmpty()) {
            return outcomes;
        }
        Map<Long, AdmissionTake.Want> wants = new LinkedHashMap<>();
        allowed.forEach((id, a) -> wants.put(id, new AdmissionTake.Want(a.jobs(), Math.min(slots, a.slots()))));
        Map<Long, List<StagedJob>> taken = new HashMap<>(take(wants));
        int needed = 0;
        for (Map.Entry<Long, Allowed> e : allowed.entrySet()) {
            List<StagedJob> jobs = taken.get(e.getKey());
            if (jobs == null || jobs.isEmpty()) {
                Optional<AdmissionOutcome> none = nothingFits(e.getKey(), e.getValue(), taken);
                none.ifPresent(outcome -> outcomes.put(e.getKey(), outcome));
            }
            needed += slotsOf(taken.getOrDefault(e.getKey(), List.of()));
        }
        if (needed > room) {
            // only a group can get here (each partition's take stays within the room): admitted one by one instead
            throw new AdmissionService.GroupDoesNotFit("the group's jobs need " + needed + " threads, " + room + " are free");
        }
        List<Admission> admissions = new ArrayList<>();
        List<GroupLimits.Use> uses = new ArrayList<>();
        for (Map.Entry<Long, Allowed> e : allowed.entrySet()) {
            long partitionId = e.getKey();
            Allowed a = e.getValue();
            List<StagedJob> jobs = taken.getOrDefault(partitionId, List.of());
            if (jobs.isEmpty()) {
                outcomes.putIfAbsent(partitionId, AdmissionOutcome.SKIPPED);
                continue;
            }
            // a job past its deadline is recorded EXPIRED, not started (prepare): it takes no slot, no token
            int used = slotsOf(jobs) - slotsOf(expired(jobs, a.locked().nowMillis()));
            seedAdaptive(a.locked().gateId(), a.gates());
            if (limits != null && used > 0) {
                uses.add(new GroupLimits.Use(a.context(), a.locked().nowMillis(), used));
            }
            Map<String, TokenBucket.State> charged = new HashMap<>(a.buckets());
            charged.putAll(a.evaluation().charged(used));
            // The gates' verdict on the next job, these admitted. A full concurrency gate backs the partition
            // off in this transaction: its jobs start only after the commit, so each one that ends finds the
            // backed-off row and wakes it. Written later (with the iteration's denials), the backoff could land
            // after the last of them had ended, and the partition would sit out its full-backoff with free slots.
            GatePipeline.Evaluation next = GatePipeline.evaluate(a.gates(), charged, a.adaptiveStates(), a.inFlight() + used,
                    a.locked().nowMillis(), 1);
            AdmissionRepository.Waiting waiting = next.admit() > 0 || next.reason() == null ? null
                    : new AdmissionRepository.Waiting(next.reason(), next.retryAfter().toMillis());
            Admission admission = prepare(partitionId, a.locked(), policy, jobs, GateStateCodec.writeBuckets(charged),
                    bucketsFullAt(a.gates(), charged), waiting);
            admissions.add(admission);
            List<StagedJob> admittedJobs = admission.recording().jobs();
            outcomes.put(partitionId, AdmissionOutcome.admitted(admittedJobs.size(), slotsOf(admittedJobs)));
        }
        if (limits != null && !uses.isEmpty()) {
            chargeLimits(policy, limits, lockLate, uses);
        }
        record(admissions);
        return outcomes;
    }

    /**
     * Charges the shared limits with what the transaction's partitions took, in their order. A group locks the keys
     * only now, so the locks of a limit every admission of its policies shares (its total) are held from here to the
     * commit, not through the take and JBeret's rows (benchmark run 42); what it took is checked on the keys as
     * locked, and a group that would pass a limit — another node or worker took slots since the unlocked read, or
     * costlier jobs took more than their slot each — is rolled back and admitted one partition at a time, each locking
     * first. The lock order is unchanged: every key after every partition.
     *
     * @param read     the keys as read before the take: locked for a single partition, unlocked for a group
     * @param lockLate a group's: the same keys are locked now, and what was taken checked on them
     */
    private void chargeLimits(EffectivePolicy policy, GroupLimits read, boolean lockLate, List<GroupLimits.Use> uses) {
        GroupLimits limits = read;
        if (lockLate) {
            limits = new GroupLimits(policy.limits(), limitRows.lockAndRead(read.keys()));
            limits.passedBy(uses).ifPresent(limit -> {
                throw new AdmissionService.GroupDoesNotFit("the group's jobs would pass " + limit);
            });
        }
        Map<SharedLimits.Key, TokenBucket.State> buckets = new HashMap<>();
        for (GroupLimits.Use use : uses) {
            buckets.putAll(limits.charge(use.context(), use.nowMillis(), use.slots()));
        }
        limitRows.charge(buckets);
    }

    /**
     * Shared limits (ADR 0049), once every partition's gates (and capacity) allow: the keys of all of them are read in
     * one statement — locked, in their lock order, after the partitions, for a single partition; unlocked for a group,
     * which locks them once it has taken its jobs (chargeLimits) — and only when everything else allows, so a refusal
     * elsewhere takes no limit's lock. Each partition is then checked in turn against what the keys hold plus what the
     * partitions before it may take (a slot per job). A partition a limit refuses leaves {@code allowed} with its
     * outcome; the others' slots are lowered to what the limits leave them.
     *
     * @return the keys as read, to reserve on and, for a single partition, to charge the admitted jobs to
     */
    private GroupLimits limited(EffectivePolicy policy, Map<Long, Allowed> allowed, int slots, Map<Long, AdmissionOutcome> outcomes,
                                boolean lock) {
        java.util.TreeSet<SharedLimits.Key> keys = new java.util.TreeSet<>(SharedLimits.Key.LOCK_ORDER);
        for (Map.Entry<Long, Allowed> e : List.copyOf(allowed.entrySet())) {
            try {
                keys.addAll(SharedLimits.keys(policy.limits(), e.getValue().context()));
            } catch (IllegalArgumentException bad) {
                allowed.remove(e.getKey());
                outcomes.put(e.getKey(), AdmissionOutcome.denied(GateParameterException.REASON, BAD_PARAMETER_BACKOFF));
            }
        }
        if (allowed.isEmpty()) {
            return null;
        }
        GroupLimits limits = new GroupLimits(policy.limits(),
                lock ? limitRows.lockAndRead(List.copyOf(keys)) : limitRows.read(List.copyOf(keys)));
        for (Map.Entry<Long, Allowed> e : List.copyOf(allowed.entrySet())) {
            Allowed a = e.getValue();
            // reserved as if its jobs cost a slot each (most do); costlier ones are checked once taken (passedBy)
            GroupLimits.Reservation reserved = limits.reserve(a.context(), a.locked().nowMillis(),
                    Math.min(a.jobs(), Math.min(slots, a.slots())));
            GateCheck check = reserved.check();
            if (check.denied()) {
                allowed.remove(e.getKey());
                outcomes.put(e.getKey(), AdmissionOutcome.denied(check.reason(), check.retryAfter()));
            } else {
                allowed.put(e.getKey(), a.limitedBy(reserved));
            }
        }
        return limits;
    }

    /** The slots jobs take: the sum of their costs. */
    private static int slotsOf(List<StagedJob> jobs) {
        int slots = 0;
        for (StagedJob job : jobs) {
            slots += job.cost();
        }
        return slots;
    }

    /**
     * A partition whose take found nothing that fits (ADR 0035). When its next job fits its gates, its
     * capacity and the node's room, and only the round's share was short of it, that one job is taken (into
     * {@code taken}). Otherwise its outcome says which limit is short of it: a gate (with when to look
     * again), the capacity, or this node's free threads. Empty when nothing waits after all.
     */
    private Optional<AdmissionOutcome> nothingFits(long partitionId, Allowed a, Map<Long, List<StagedJob>> taken) {
        java.util.OptionalInt head = taking.headCost(partitionId);
        if (head.isEmpty()) {
            return Optional.empty();
        }
        int need = head.getAsInt();
        if (need <= a.slots()) {
            List<StagedJob> one = take(Map.of(partitionId, new AdmissionTake.Want(1, need))).getOrDefault(partitionId, List.of());
            taken.put(partitionId, one);
            return Optional.empty();
        }
        GatePipeline.Evaluation gates = GatePipeline.evaluate(a.gates(), a.buckets(), a.adaptiveStates(), a.inFlight(),
                a.locked().nowMillis(), Integer.MAX_VALUE, need);
        if (gates.admit() == 0 && gates.reason() != null) {
            return Optional.of(AdmissionOutcome.denied(gates.reason(), gates.retryAfter()));
        }
        if (a.capacityFree() < need) {
            return Optional.of(AdmissionOutcome.denied(a.capacityReason(), Duration.ZERO));
        }
        GateCheck limited = a.limits() == null ? GateCheck.allow(need) : a.limits().forJobOf(need);
        if (limited.denied()) {
            return Optional.of(AdmissionOutcome.denied(limited.reason(), limited.retryAfter()));
        }
        return Optional.of(AdmissionOutcome.needsThreads(need));
    }

    /**
     * What a partition's gates allow it to take now, or its outcome when they allow nothing. The capacity,
     * when the policy has one, is locked and counted here, after the partition's lock (every admission
     * locks in this order) and only when the gates allow: it is held for the rest of the transaction,
     * which admits only this partition (partitions of a policy with a capacity are not admitted together).
     * Shared limits come after, for all the transaction's partitions at once (limited).
     */
    private Allowed allow(LockedPartition locked, EffectivePolicy policy, int atMost, int room) {
        if (locked.paused()) {
            return Allowed.not(AdmissionOutcome.SKIPPED);
        }
        int jobs = Math.min(atMost, locked.pending());
        if (jobs <= 0 || room <= 0) {
            return Allowed.not(AdmissionOutcome.SKIPPED);
        }
        List<ResolvedGate> gates;
        Map<String, Object> context = JsonCodec.readScalars(locked.contextJson()); // the gates' and the shared limits'
        try {
            gates = policy.withGateOverrides(OverrideCodec.read(locked.overridesJson()).inForce(locked.nowMillis()))
                    .resolveGates(context);
        } catch (GateParameterException e) {
            return Allowed.not(AdmissionOutcome.denied(GateParameterException.REASON, BAD_PARAMETER_BACKOFF));
        }
        long inFlight = policy.countsInFlight() ? inflight.count(locked.gateId()) : 0;
        Map<String, TokenBucket.State> buckets = GateStateCodec.readBuckets(locked.gateStateJson());
        Map<String, AdaptiveCap.State> adaptiveStates = policy.adaptiveGateIds().isEmpty() ? Map.of() : adaptive.load(locked.gateId());
        // asked for the node's whole room, so that a costly job the round's share is short of can still be told what fits
        GatePipeline.Evaluation evaluation = GatePipeline.evaluate(gates, buckets, adaptiveStates, inFlight, locked.nowMillis(), room);
        if (evaluation.admit() == 0) {
            return Allowed.not(AdmissionOutcome.denied(evaluation.reason(), evaluation.retryAfter()));
        }
        int allowed = evaluation.admit();
        long capacityFree = Integer.MAX_VALUE;
        String full = Denial.CAPACITY_FULL;
        if (policy.capacity().isPresent()) {
            int cap = policy.capacity().getAsInt();
            if (LaneLimits.any(policy.lanes())) {
                // lending and borrowing limits (ADR 0047) are held here, under the capacity's lock, on every node
                Map<String, Long> byLane = capacity.lockAndCountByLane(locked.policyName());
                capacityFree = LaneLimits.room(policy.lanes(), cap, byLane, locked.lane());
                if (capacityFree < cap - byLane.values().stream().mapToLong(Long::longValue).sum()) {
                    full = Denial.LANE_LIMIT;
                }
            } else {
                capacityFree = cap - capacity.lockAndCount(locked.policyName());
            }
            if (capacityFree <= 0) {
                return Allowed.not(AdmissionOutcome.denied(full, Duration.ZERO));
            }
            allowed = (int) Math.min(allowed, capacityFree);
        }
        return new Allowed(null, locked, jobs, allowed, capacityFree, full, context, null, gates, inFlight, buckets, adaptiveStates, evaluation);
    }

    /**
     * A partition's gates' verdict before its jobs are taken: how many jobs it may take, and the slots its
     * gates, capacity and the node's room allow together; or its outcome.
     */
    private record Allowed(AdmissionOutcome outcome, LockedPartition locked, int jobs, int slots, long capacityFree,
                           String capacityReason, Map<String, Object> context, GroupLimits.Reservation limits,
                           List<ResolvedGate> gates, long inFlight, Map<String, TokenBucket.State> buckets,
                           Map<String, AdaptiveCap.State> adaptiveStates, GatePipeline.Evaluation evaluation) {
        static Allowed not(AdmissionOutcome outcome) {
            return new Allowed(outcome, null, 0, 0, 0, null, null, null, null, 0, null, null, null);
        }

        /** Its slots lowered to what the shared limits left it. */
        Allowed limitedBy(GroupLimits.Reservation reserved) {
            return new Allowed(outcome, locked, jobs, (int) Math.min(slots, reserved.check().allowed()), capacityFree, capacityReason,
                    context, reserved, gates, inFlight, buckets, adaptiveStates, evaluation);
        }
    }

    /** A partition's admission in this transaction: its row as locked, and what is recorded of it. */
    private record Admission(LockedPartition locked, AdmissionRepository.Recording recording) {
    }

    @Inject
    io.dispatchpolicy.staging.DiscardedJobs discarded;

    @Override
    public int forceAdmit(long partitionId, int count) {
        Optional<LockedPartition> lock = partitions.lockWaiting(partitionId);
        if (lock.isEmpty() || count <= 0) {
            return 0;
        }
        LockedPartition locked = lock.get();
        List<StagedJob> jobs = take(Map.of(partitionId, new AdmissionTake.Want(count, Integer.MAX_VALUE))).getOrDefault(partitionId, List.of());
        if (!jobs.isEmpty()) {
            Optional<EffectivePolicy> policy = heldPolicies.effectiveIfDeclared(locked.policyName());
            Admission admission = prepare(partitionId, locked, policy.orElse(null), jobs, null, null, null);
            record(List.of(admission));
            return admission.recording().admitted().size();
        }
        return 0;
    }

    private static AdmissionRepository.Admitting admitting(long partitionId, LockedPartition locked) {
        return new AdmissionRepository.Admitting(partitionId, locked.gateId(), locked.lane(), locked.policyName());
    }

    /**
     * When the last of the partition's throttle buckets is full again and its quotas' periods with admissions
     * have ended: until then the sweep keeps the row, whose state a new row would not have (a fresh row starts
     * full and counts nothing). Null without a throttle or a quota.
     */
    private static Long bucketsFullAt(List<ResolvedGate> gates, Map<String, TokenBucket.State> charged) {
        Long latest = null;
        for (ResolvedGate gate : gates) {
            Long full = null;
            if (gate instanceof ResolvedGate.Throttle t && charged.containsKey(t.id())) {
                full = TokenBucket.fullAtMillis(charged.get(t.id()), t.rate(), t.perSeconds());
            } else if (gate instanceof ResolvedGate.Quota q && charged.containsKey(q.id())) {
                full = CalendarQuota.spentUntilMillis(charged.get(q.id()), q.period(), q.zone());
            }
            if (full != null) {
                latest = latest == null ? full : Math.max(latest, full);
            }
        }
        return latest;
    }

    /** The partitions' next jobs (priority, then age); a row that cannot be read fails as that row's admission. */
    private Map<Long, List<StagedJob>> take(Map<Long, AdmissionTake.Want> wants) {
        try {
            return taking.take(wants);
        } catch (UnreadableStagedJob e) {
            throw new JobAdmissionException(e.submissionId(), e);
        }
    }

    /**
     * JBeret's rows for every job of a partition, and what is to be recorded of them.
     *
     * @param taken the jobs taken out of the partition; a schedule's occurrence taken too late to run
     *              (ScheduleChaining#withoutMissed) is skipped rather than admitted
     */
    private Admission prepare(long partitionId, LockedPartition locked, EffectivePolicy policy, List<StagedJob> taken,
                              String chargedGateState, Long bucketsFullAtMillis, AdmissionRepository.Waiting next) {
        List<StagedJob> jobs = chaining.withoutMissed(locked, withoutExpired(partitionId, locked, taken));
        List<Admitted> admitted = new ArrayList<>(jobs.size());
        for (StagedJob job : jobs) {
            admitted.add(new Admitted(job.submissionId(), create(job), job.jobName()));
        }
        chaining.admitted(locked, jobs, admitted);
        double halfLife = policy == null ? DEFAULT_HALF_LIFE_SECONDS
                : policy.fairnessHalfLife().map(d -> d.toMillis() / 1000.0).orElse(DEFAULT_HALF_LIFE_SECONDS);
        return new Admission(locked, new AdmissionRepository.Recording(admitting(partitionId, locked), admitted, jobs, taken.size(),
                chargedGateState,
                DecayedAdmits.add(locked.decayedAdmits(), locked.decayedAtMillis(), locked.nowMillis(), halfLife, jobs.size()),
                locked.nowMillis(), bucketsFullAtMillis, next, timeoutsOf(policy, jobs), usageHalfLife(policy),
                limitKeysOf(policy, locked)));
    }

    /**
     * The shared limits' keys its in-flight rows hold (ADR 0049), as JSON; null without limits. An operator's
     * admission and a bypassing restart pass no limit, but count in them as they run, as they do in the capacity.
     */
    private static String limitKeysOf(EffectivePolicy policy, LockedPartition locked) {
        if (policy == null || policy.limits().isEmpty()) {
            return null;
        }
        try {
            return JsonCodec.writeStrings(SharedLimits.keys(policy.limits(), JsonCodec.readScalars(locked.contextJson())).stream()
                    .map(SharedLimits.Key::encoded).toList());
        } catch (IllegalArgumentException e) {
            return null; // a context without a limit's key: its job counts in none (an ordinary admission is denied first)
        }
    }

    /** The half-life its in-flight rows carry when the policy orders by usage (ADR 0048); null otherwise. */
    private static Double usageHalfLife(EffectivePolicy policy) {
        return policy == null || policy.usageHalfLifeSeconds().isEmpty() ? null : policy.usageHalfLifeSeconds().getAsDouble();
    }

    /**
     * The jobs taken whose deadline had not passed at the lock (the database's clock); the others are recorded
     * EXPIRED instead of started (ADR 0036). The take reads no row twice for them: they are out of staging and
     * of their partition's count like every job taken.
     */
    private List<StagedJob> withoutExpired(long partitionId, LockedPartition locked, List<StagedJob> taken) {
        List<StagedJob> expired = expired(taken, locked.nowMillis());
        if (expired.isEmpty()) {
            return taken; // every ordinary admission
        }
        discarded.expiredAtAdmission(partitionId, expired);
        metrics.discardedOnCommit(locked.policyName(), "expired", expired.size());
        chaining.expired(locked, expired); // a schedule's occurrence: ended, its next one staged
        List<StagedJob> run = new ArrayList<>(taken);
        run.removeAll(expired);
        return run;
    }

    private static List<StagedJob> expired(List<StagedJob> jobs, long nowMillis) {
        List<StagedJob> expired = List.of();
        for (StagedJob job : jobs) {
            if (job.expiredAt(nowMillis)) {
                expired = expired.isEmpty() ? new ArrayList<>() : expired;
                expired.add(job);
            }
        }
        return expired;
    }

    /** The timeouts in force for each job: its submission's own, else its policy's for its name (ADR 0030). */
    private static List<JobTimeouts> timeoutsOf(EffectivePolicy policy, List<StagedJob> jobs) {
        List<JobTimeouts> timeouts = new ArrayList<>(jobs.size());
        for (StagedJob job : jobs) {
            timeouts.add(policy == null ? job.timeouts() : policy.timeoutsOf(job.jobName(), job.timeouts()));
        }
        return timeouts;
    }

    /** Our bookkeeping of the transaction's admissions in one statement, then the observers and the counts on commit. */
    private void record(List<Admission> done) {
        if (done.isEmpty()) {
            return;
        }
        admissions.record(node.id(), done.stream().map(Admission::recording).toList());
        for (Admission a : done) {
            List<Admitted> admitted = a.recording().admitted();
            if (!admitted.isEmpty()) {
                LockedPartition locked = a.locked();
                admitting.fire(new JobsAdmitting(locked.policyName(), locked.partitionKey(), List.copyOf(admitted)));
                metrics.admittedOnCommit(locked.policyName(), locked.lane(), a.recording().jobs());
                history.admittedOnCommit(a.recording().where().partitionId(), locked.policyName(), admitted.size());
            }
        }
    }

    private long create(StagedJob job) {
        try {
            if (job.restartOf() != null) {
                return executions.restart(job.restartOf(), job.parameters().toProperties(job.submissionId()),
                        job.submittedBy(), node.id(), instances::latestExecution, job.cost());
            }
            return executions.create(job.jobName(), job.parameters().toProperties(job.submissionId()),
                    job.submittedBy(), node.id(), job.cost());
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
        return taking.failedAttempt(submissionId, error, settings.admissionMaxAttempts());
    }


}
