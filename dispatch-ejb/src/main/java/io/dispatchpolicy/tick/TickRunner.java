package io.dispatchpolicy.tick;

import io.dispatchpolicy.admission.AdmissionOutcome;
import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.admission.CapacityRepository;
import io.dispatchpolicy.admission.JobAdmissionException;
import io.dispatchpolicy.admission.PolicyStateRepository;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.domain.gate.DecayedAdmits;
import io.dispatchpolicy.domain.gate.TickBudget;
import io.dispatchpolicy.domain.lane.LaneClock;
import io.dispatchpolicy.domain.lane.LaneShares;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.CompletionCounter;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.observe.TickSampleRepository;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.policy.HeldPolicies;
import io.dispatchpolicy.policy.PolicyRegistry;
import io.dispatchpolicy.spi.Lane;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A tick: iterations of claim → order → gates → admit, for {@code dispatch.tick-max-duration},
 * pausing {@code dispatch.idle-pause} after an iteration that admitted nothing (or less, when a
 * submission commits on this node: {@link TickSignal}); then one sample row
 * (with the time spent in iterations, so the console can tell how close the tick is to saturation).
 *
 * <p>Within an iteration each policy's claimed partitions are taken least-recently-admitted first
 * (lowest decayed admits), and share the policy's tick budget fairly. Each claim is a transaction of its
 * own, and so is each partition's admission, or that of a group of small partitions of a policy without
 * a budget (a failing group is retried partition by partition, so a failing partition rolls back alone);
 * the denials of the iteration are written back in one statement.
 */
// A singleton with bean-managed concurrency (it holds no state): the loops that call it name it in @DependsOn, so it stops only after they have.
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class TickRunner {

    /** Scheduled jobs promoted per iteration at most: more wait for the next iteration, none is lost. */
    static final int PROMOTE_BATCH = 10_000;
    /** Due bypassing restarts started per iteration at most (each its own transaction); more wait for the next. */
    static final int BYPASS_BATCH = 100;

    private static final Logger LOG = Logger.getLogger(TickRunner.class.getName());
    /** A partition whose admission failed for a reason no single job explains waits this long. */
    static final Duration FAILURE_BACKOFF = Duration.ofSeconds(5);

    @Inject
    AdmissionService admission;

    @Inject
    TickTransactions steps;

    @Inject
    PolicyRegistry policies;

    @Inject
    PolicyStateRepository policyState;

    @Inject
    HeldPolicies held;

    @Inject
    DatabaseOutage outage;

    @Inject
    PartitionRepository partitions;

    @Inject
    TickSampleRepository samples;

    @Inject
    CapacityRepository capacity;

    /** Per policy with lanes, their virtual times on this node (a budget split's memory across iterations). */
    private final Map<String, LaneClock> clocks = new java.util.concurrent.ConcurrentHashMap<>();

    @Inject
    ThisNode node;

    @Inject
    CompletionCounter completions;

    @Inject
    TickSignal signal;

    @Inject
    DispatchSettings settings;

    @Inject
    EngineMetrics metrics;


    /** Runs one tick while {@code keepGoing} holds; @return what it did. */
    public IterationReport tick(BooleanSupplier keepGoing) {
        Instant started = Instant.now();
        long deadline = System.nanoTime() + settings.tickMaxDuration().toNanos();
        IterationReport total = new IterationReport();
        long busyNanos = 0;
        while (keepGoing.getAsBoolean()) {
            long iterationStart = System.nanoTime();
            IterationReport iteration = iterate();
            node.tickSucceeded(); // per iteration: a tick lasts seconds, and the console counts from here
            busyNanos += System.nanoTime() - iterationStart;
            total.add(iteration);
            if (iteration.admitted() == 0) {
                long idle = settings.idlePause().toNanos();
                if (System.nanoTime() + idle >= deadline) {
                    break;
                }
                if (!signal.awaitWork(idle)) {
                    break;
                }
            } else if (System.nanoTime() >= deadline) {
                break;
            }
        }
        long[] ended = completions.drain();
        samples.record(node.id(), started, Duration.between(started, Instant.now()).toMillis(), busyNanos / 1_000_000,
                total.iterations(), total.claimed(), total.admitted(), total.denied(), partitions.pendingTotal(),
                ended[0], ended[1]);
        metrics.tick(Duration.between(started, Instant.now()).toNanos(), busyNanos);
        return total;
    }

    /**
     * Scheduled jobs due by now join their partitions, and due restarts that bypass the gates go to
     * JBeret; then one claim and the admission of every claimed partition. Promoting first is what admits
     * a delayed job within one iteration of its time.
     */
    public IterationReport iterate() {
        IterationReport report = new IterationReport();
        steps.promoteDue(PROMOTE_BATCH);
        for (DueBypass due : steps.bypassedDue(BYPASS_BATCH)) {
            report.admitted(admitBypassed(due));
        }
        List<ClaimedPartition> claimed = steps.claim(settings.partitionBatchSize());
        report.claimed(claimed.size());
        List<String> laned = policies.lanedPolicyNames();
        if (claimed.isEmpty() && laned.isEmpty()) {
            return report;
        }
        Set<String> paused = policyState.pausedPolicies();
        List<Long> pausedIds = new ArrayList<>();
        List<Denial> denials = new ArrayList<>();
        Map<String, List<ClaimedPartition>> byPolicy = new LinkedHashMap<>();
        claimed.forEach(p -> byPolicy.computeIfAbsent(p.policyName(), k -> new ArrayList<>()).add(p));
        long now = System.currentTimeMillis();
        for (Map.Entry<String, List<ClaimedPartition>> group : byPolicy.entrySet()) {
            if (paused.contains(group.getKey())) {
                group.getValue().forEach(p -> pausedIds.add(p.id()));
            } else if (policies.named(group.getKey()).isEmpty()) {
                // staged under a policy this deployment no longer declares: wait for it to come back
                group.getValue().forEach(p -> denials.add(new Denial(p.id(), p.policyName(), Denial.UNKNOWN_POLICY, Duration.ofSeconds(60), 0)));
            } else {
                Optional<EffectivePolicy> policy = held.effective(group.getKey());
                if (policy.isEmpty()) {
                    // a bad value written at runtime: the policy waits until it is fixed
                    group.getValue().forEach(p -> denials.add(heldBack(p)));
                    continue;
                }
                admitPolicy(policy.get(), group.getValue(), now, denials, report);
            }
        }
        for (String name : laned) {
            if (paused.contains(name)) {
                continue;
            }
            Optional<EffectivePolicy> policy = held.effective(name);
            if (policy.isEmpty()) {
                denyHeldLanes(name, denials, report);
            } else if (policy.get().hasLanes()) {
                admitLanes(policy.get(), now, denials, report);
            }
        }
        denials.forEach(d -> report.denied(d.reason()));
        steps.deny(denials);
        denials.stream().collect(java.util.stream.Collectors.groupingBy(d -> List.of(d.policyName(), d.reason()),
                java.util.stream.Collectors.counting()))
                .forEach((by, n) -> metrics.denied(by.get(0), by.get(1), n.intValue()));
        steps.markPaused(pausedIds);
        return report;
    }

    /**
     * A policy held by a bad value written at runtime admits nothing until it is fixed; its lanes'
     * partitions are claimed only to be denied {@code invalid_settings}, as a held policy's partitions
     * outside lanes are, so every waiting partition says why it waits.
     */
    private void denyHeldLanes(String policyName, List<Denial> denials, IterationReport report) {
        for (String lane : held.lanesWhileHeld(policyName)) {
            List<ClaimedPartition> claimed = steps.claimLane(policyName, lane, settings.partitionBatchSize());
            report.alsoClaimed(claimed.size());
            claimed.forEach(p -> denials.add(heldBack(p)));
        }
    }

    private static Denial heldBack(ClaimedPartition p) {
        return new Denial(p.id(), p.policyName(), Denial.INVALID_SETTINGS, Duration.ofSeconds(10), 0);
    }

    /**
     * Admits a policy's claimed partitions: strictly by their highest waiting priority (ADR 0009), and
     * within one priority fairly (decayed admits, then the tick budget's shares). A higher priority takes
     * what it can of the budget before a lower one gets any.
     */
    private void admitPolicy(EffectivePolicy policy, List<ClaimedPartition> claimed, long now, List<Denial> denials,
                             IterationReport report) {
        OptionalInt left = policy.tickAdmissionBudget();
        String exhausted = Denial.TICK_CAP_EXHAUSTED;
        if (policy.capacity().isPresent()) {
            // The free slots as this iteration sees them bound it like a budget, shared the same way;
            // each admission still counts under the policy's lock, which is what holds the capacity.
            long free = Math.max(0, policy.capacity().getAsInt() - capacity.inFlight(policy.name()));
            if (free == 0) {
                signal.awaitSlot(policy.name());
            }
            if (left.isEmpty() || free < left.getAsInt()) {
                left = OptionalInt.of((int) free);
                exhausted = Denial.CAPACITY_FULL;
            }
        }
        admitTiers(policy, claimed, left, exhausted, now, denials, report);
    }

    /**
     * A policy with lanes: each lane claims its own partitions, then what is scarce — the free slots of
     * the capacity, or the tick budget, whichever is smaller — is shared between the lanes with work by
     * {@link LaneShares} (minimums first, then by weight), and each lane admits its share from its
     * partitions as a policy without lanes would (priority, then fairness). A lane whose gates leave part
     * of its share unused hands it to the others in the next round, so no slot stays idle while any lane
     * can use it. With neither a capacity nor a budget nothing is scarce, and every lane admits freely.
     */
    private void admitLanes(EffectivePolicy policy, long now, List<Denial> denials, IterationReport report) {
        List<Lane> lanes = policy.lanes();
        int n = lanes.size();
        List<Deque<ClaimedPartition>> queues = new ArrayList<>(n);
        boolean any = false;
        int totalWeight = lanes.stream().mapToInt(Lane::weight).sum();
        for (Lane lane : lanes) {
            // each lane claims its weight's part of the partition batch (at least one): the lanes together
            // claim about as many partitions as a policy without lanes, so admitting a share costs as many
            // transactions as admitting a budget does there, not one per lane per partition
            int limit = (int) Math.max(1, Math.ceil(settings.partitionBatchSize() * (double) lane.weight() / totalWeight));
            List<ClaimedPartition> claimed = steps.claimLane(policy.name(), lane.name(), limit);
            report.alsoClaimed(claimed.size());
            queues.add(new ArrayDeque<>(ordered(policy, claimed, now)));
            any |= !claimed.isEmpty();
        }
        if (!any) {
            return;
        }
        Map<String, Long> inFlightByLane = policy.capacity().isPresent() ? capacity.inFlightByLane(policy.name()) : Map.of();
        OptionalInt free = OptionalInt.empty();
        String exhausted = Denial.TICK_CAP_EXHAUSTED;
        if (policy.capacity().isPresent()) {
            long total = inFlightByLane.values().stream().mapToLong(Long::longValue).sum();
            free = OptionalInt.of((int) Math.max(0, policy.capacity().getAsInt() - total));
            exhausted = Denial.CAPACITY_FULL;
            if (free.getAsInt() == 0) {
                signal.awaitSlot(policy.name());
            }
        }
        OptionalInt budget = policy.tickAdmissionBudget();
        if (budget.isPresent() && (free.isEmpty() || budget.getAsInt() < free.getAsInt())) {
            free = budget;
            exhausted = Denial.TICK_CAP_EXHAUSTED;
        }
        if (free.isEmpty()) {
            for (Deque<ClaimedPartition> queue : queues) {
                admitTiers(policy, new ArrayList<>(queue), OptionalInt.empty(), exhausted, now, denials, report);
            }
            return;
        }
        String[] names = lanes.stream().map(Lane::name).toArray(String[]::new);
        int[] weight = lanes.stream().mapToInt(Lane::weight).toArray();
        int[] min = lanes.stream().mapToInt(Lane::min).toArray();
        long[] inFlight = lanes.stream().mapToLong(l -> inFlightByLane.getOrDefault(l.name(), 0L)).toArray();
        LaneClock clock = clocks.computeIfAbsent(policy.name(), k -> new LaneClock());
        java.util.Set<String> active = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            if (queues.get(i).isEmpty()) {
                clock.idle(names[i]);
            } else {
                active.add(names[i]);
            }
        }
        double[] start = clock.times(names, active);
        int batch = policy.admissionBatchSize();
        // a partition admits at most one batch per iteration, as without lanes: that bounds the top-ups below
        Map<Long, Integer> allowance = new HashMap<>();
        queues.forEach(q -> q.forEach(p -> allowance.put(p.id(), Math.min(batch, p.pending()))));
        java.util.Set<Long> admittedFrom = new java.util.HashSet<>();
        int[] admitted = new int[n];
        int[] sinceCount = new int[n];
        boolean capacityBinds = Denial.CAPACITY_FULL.equals(exhausted);
        int budgetLeft = budget.isPresent() ? budget.getAsInt() : Integer.MAX_VALUE;
        int left = free.getAsInt();
        while (true) {
            if (left == 0) {
                if (!capacityBinds || queues.stream().allMatch(Deque::isEmpty) || budgetLeft == 0) {
                    break;
                }
                // Jobs shorter than an iteration free slots while it runs: count again and go on with what
                // is free now, rather than leave those slots idle until the next iteration's count.
                Map<String, Long> counted = capacity.inFlightByLane(policy.name());
                long total = counted.values().stream().mapToLong(Long::longValue).sum();
                left = (int) Math.min(budgetLeft, Math.max(0, policy.capacity().getAsInt() - total));
                if (left == 0) {
                    signal.awaitSlot(policy.name());
                    break;
                }
                for (int i = 0; i < n; i++) {
                    inFlight[i] = counted.getOrDefault(names[i], 0L);
                    sinceCount[i] = 0;
                }
            }
            int[] wanting = new int[n];
            double[] base = new double[n];
            long[] holding = new long[n];
            for (int i = 0; i < n; i++) {
                for (ClaimedPartition p : queues.get(i)) {
                    wanting[i] += allowance.get(p.id());
                }
                holding[i] = inFlight[i] + sinceCount[i];
                base[i] = start[i] + admitted[i] / (double) weight[i];
            }
            int[] given = LaneShares.share(left, weight, min, holding, wanting, base);
            boolean tried = false;
            for (int i = 0; i < n; i++) {
                Deque<ClaimedPartition> queue = queues.get(i);
                TickBudget share = new TickBudget(OptionalInt.of(given[i]), queue.size());
                for (int k = queue.size(); k > 0 && !share.exhausted() && !queue.isEmpty(); k--) {
                    ClaimedPartition p = queue.poll();
                    tried = true;
                    int limit = Math.min(allowance.get(p.id()), share.nextShare());
                    int got = admitOne(p, policy, limit, denials);
                    share.use(got);
                    left -= got;
                    budgetLeft -= got;
                    admitted[i] += got;
                    sinceCount[i] += got;
                    allowance.merge(p.id(), -got, Integer::sum);
                    if (got > 0) {
                        admittedFrom.add(p.id());
                        report.admitted(got);
                    }
                    if (got == limit && allowance.get(p.id()) > 0) {
                        queue.addLast(p); // it took all it was given and may take more: it may get more next round
                    }
                }
            }
            if (!tried) {
                break;
            }
        }
        for (Deque<ClaimedPartition> queue : queues) {
            for (ClaimedPartition p : queue) {
                if (!admittedFrom.contains(p.id())) {
                    denials.add(keepingPlace(p, exhausted));
                }
            }
        }
        for (int i = 0; i < n; i++) {
            clock.advance(names[i], admitted[i], weight[i]);
        }
    }

    /** Claimed partitions in admission order: highest waiting priority first, then fairly (decayed admits). */
    private static List<ClaimedPartition> ordered(EffectivePolicy policy, List<ClaimedPartition> claimed, long now) {
        List<ClaimedPartition> ordered = new ArrayList<>(claimed);
        Comparator<ClaimedPartition> byPriority = Comparator.comparingInt(ClaimedPartition::topPriority).reversed();
        Comparator<ClaimedPartition> order = policy.fairnessHalfLife().map(halfLife -> {
            double seconds = halfLife.toMillis() / 1000.0;
            return byPriority.thenComparingDouble(
                            (ClaimedPartition p) -> DecayedAdmits.at(p.decayedAdmits(), p.decayedAtMillis(), now, seconds))
                    .thenComparingLong(ClaimedPartition::previousCheckedAtMillis)
                    .thenComparingLong(ClaimedPartition::id);
        }).orElse(byPriority);
        ordered.sort(order);
        return ordered;
    }

    /** Partitions of any priorities sharing {@code left}: each priority in turn, highest first. */
    private void admitTiers(EffectivePolicy policy, List<ClaimedPartition> claimed, OptionalInt left, String exhausted, long now,
                            List<Denial> denials, IterationReport report) {
        TreeMap<Integer, List<ClaimedPartition>> byPriority = new TreeMap<>(Comparator.reverseOrder());
        claimed.forEach(p -> byPriority.computeIfAbsent(p.topPriority(), k -> new ArrayList<>()).add(p));
        for (List<ClaimedPartition> tier : byPriority.values()) {
            int used = admitFairly(policy, tier, left, exhausted, now, denials, report);
            if (left.isPresent()) {
                left = OptionalInt.of(Math.max(0, left.getAsInt() - used));
            }
        }
    }

    /**
     * One priority's partitions, lowest decayed admits first, sharing {@code budget}; those the budget
     * does not reach are denied with {@code exhausted} and keep their place. @return admitted.
     */
    private int admitFairly(EffectivePolicy policy, List<ClaimedPartition> claimed, OptionalInt budgetLeft, String exhausted,
                            long now, List<Denial> denials, IterationReport report) {
        List<ClaimedPartition> ordered = ordered(policy, claimed, now);
        int batch = policy.admissionBatchSize();
        TickBudget budget = new TickBudget(budgetLeft, ordered.size());
        if (!budget.limited() && ordered.stream().allMatch(p -> p.lane().isEmpty())) {
            int admitted = admitInGroups(policy, ordered, batch, denials);
            report.admitted(admitted);
            return admitted;
        }
        Map<Long, Integer> admittedBy = new HashMap<>();
        List<ClaimedPartition> filled = new ArrayList<>();
        for (ClaimedPartition p : ordered) {
            if (budget.exhausted()) {
                denials.add(keepingPlace(p, exhausted));
                continue;
            }
            int limit = Math.min(batch, budget.nextShare());
            int n = admitOne(p, policy, limit, denials);
            budget.use(n);
            admittedBy.put(p.id(), n);
            if (budget.limited() && n == limit && n < batch) {
                filled.add(p);
            }
        }
        for (ClaimedPartition p : filled) {
            int extra = Math.min(budget.remaining(), batch - admittedBy.get(p.id()));
            if (extra <= 0) {
                break;
            }
            int n = admitOne(p, policy, extra, denials);
            budget.use(n);
            admittedBy.merge(p.id(), n, Integer::sum);
        }
        admittedBy.values().forEach(report::admitted);
        return admittedBy.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Without a budget (nor a capacity, which binds like one) what a partition may take does not depend on
     * what the others took, so consecutive partitions share a transaction until together they wait for a
     * batch: a transaction admits about a batch of jobs whether they come from one busy partition or from
     * many with a few each, and the cost of a transaction (its commit, its locks' statement) is paid per
     * batch, not per partition (ADR 0016). @return admitted
     */
    private int admitInGroups(EffectivePolicy policy, List<ClaimedPartition> ordered, int batch, List<Denial> denials) {
        int admitted = 0;
        List<ClaimedPartition> group = new ArrayList<>();
        int waiting = 0;
        for (ClaimedPartition p : ordered) {
            group.add(p);
            waiting += Math.min(batch, p.pending());
            if (waiting >= batch) {
                admitted += admitGroup(policy, group, batch, denials);
                group.clear();
                waiting = 0;
            }
        }
        return group.isEmpty() ? admitted : admitted + admitGroup(policy, group, batch, denials);
    }

    /** One group's transaction; when it fails, each partition again on its own, so a failure stays with its partition. */
    private int admitGroup(EffectivePolicy policy, List<ClaimedPartition> group, int batch, List<Denial> denials) {
        if (group.size() > 1) {
            try {
                List<AdmissionOutcome> outcomes = admission.admitTogether(group, policy, batch);
                int admitted = 0;
                for (int i = 0; i < group.size(); i++) {
                    admitted += settle(group.get(i), policy, outcomes.get(i), denials);
                }
                return admitted;
            } catch (RuntimeException e) {
                if (outage.absorbs(e)) {
                    throw e;
                }
                LOG.log(Level.FINE, e, () -> "Admission of " + group.size() + " partitions of policy '" + policy.name()
                        + "' together rolled back; each is admitted on its own");
            }
        }
        int admitted = 0;
        for (ClaimedPartition p : group) {
            admitted += admitOne(p, policy, batch, denials);
        }
        return admitted;
    }

    /** A restart of a policy whose retry strategy is bypass, due now: straight to JBeret, in its own transaction. */
    private int admitBypassed(DueBypass due) {
        try {
            return admission.admitBypassed(due) ? 1 : 0;
        } catch (JobAdmissionException e) {
            if (outage.absorbs(e)) {
                throw e;
            }
            admission.bypassRefused(e.submissionId(), String.valueOf(e.getCause()));
            LOG.log(Level.WARNING, e, () -> "Restart " + e.submissionId() + " could not bypass the gates; it waits "
                    + "in its partition like any restart");
            return 0;
        }
    }

    /** A denial that leaves the partition at the front of the next claim: nothing of its own kept it back. */
    private static Denial keepingPlace(ClaimedPartition p, String reason) {
        long previous = p.previousCheckedAtMillis();
        return new Denial(p.id(), p.policyName(), reason, Duration.ZERO, previous == 0 ? -1 : previous);
    }

    /** A partition's outcome: its denial, if any, for the iteration's denials; @return admitted. */
    private int settle(ClaimedPartition p, EffectivePolicy policy, AdmissionOutcome outcome, List<Denial> denials) {
        if (outcome.denied()) {
            if (Denial.CAPACITY_FULL.equals(outcome.reason())) {
                // another worker or node took the last slots after this iteration counted them
                signal.awaitSlot(policy.name());
                denials.add(keepingPlace(p, Denial.CAPACITY_FULL));
            } else {
                denials.add(new Denial(p.id(), p.policyName(), outcome.reason(), outcome.retryAfter(), 0));
            }
        }
        return outcome.admitted();
    }

    private int admitOne(ClaimedPartition p, EffectivePolicy policy, int limit, List<Denial> denials) {
        try {
            return settle(p, policy, admission.admit(p, policy, limit), denials);
        } catch (JobAdmissionException e) {
            if (outage.absorbs(e)) {
                throw e; // not the job's fault: no attempt is counted against it
            }
            boolean parked = admission.failedAttempt(e.submissionId(), String.valueOf(e.getCause()));
            LOG.log(Level.WARNING, e, () -> "Partition '" + p.partitionKey() + "' of policy '" + p.policyName()
                    + "': staged job " + e.submissionId() + (parked ? " is parked after repeated failures" : " failed to admit"));
            return 0;
        } catch (RuntimeException e) {
            if (outage.absorbs(e)) {
                throw e; // the database is gone: end the tick rather than fail every claimed partition
            }
            LOG.log(Level.WARNING, e, () -> "Admission of partition '" + p.partitionKey() + "' of policy '"
                    + p.policyName() + "' rolled back; its jobs stay staged");
            denials.add(new Denial(p.id(), p.policyName(), Denial.ADMISSION_FAILED, FAILURE_BACKOFF, 0));
            return 0;
        }
    }
}
