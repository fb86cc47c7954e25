package io.dispatchpolicy.tick;

import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.admission.CapacityRepository;
import io.dispatchpolicy.admission.JobAdmissionException;
import io.dispatchpolicy.admission.PolicyStateRepository;
import io.dispatchpolicy.admission.PolicyStates;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.jberet.BatchThreads;
import io.dispatchpolicy.domain.lane.LaneClock;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.ServerSuspension;
import io.dispatchpolicy.node.ThisNode;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.observe.CompletionCounter;
import io.dispatchpolicy.observe.EngineMetrics;
import io.dispatchpolicy.observe.TickSampleRepository;
import io.dispatchpolicy.partition.PartitionRepository;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.partition.OverrideCodec;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
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
    ServerSuspension suspension;

    @Inject
    CompletionCounter completions;

    @Inject
    TickSignal signal;

    @Inject
    DispatchSettings settings;

    @Inject
    BatchThreads threads;

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
            // an iteration is one admission: a suspend waits for it to commit, and none starts after
            Optional<IterationReport> admitted = suspension.whileAdmitting(this::iterate);
            if (admitted.isEmpty()) {
                break; // the server is suspending
            }
            IterationReport iteration = admitted.get();
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
     * Staged jobs past their deadline expire, scheduled jobs due by now join their partitions, and due restarts that bypass the gates go to
     * JBeret; then one claim, and each policy's claimed partitions admitted by its kind of round:
     * {@link PolicyRound} outside lanes, {@link LaneRound} for a policy's lanes. Promoting first is what
     * admits a delayed job within one iteration of its time. The iteration's denials are written back in
     * one statement at its end.
     */
    public IterationReport iterate() {
        IterationReport report = new IterationReport();
        steps.promoteDue(PROMOTE_BATCH);
        // this node admits only what its batch threads can start (ADR 0027); none free: nothing is claimed,
        // the work stays for any node with a free thread, and this tick sleeps until one of its own frees
        int room = threads.reserve(Integer.MAX_VALUE);
        if (room == 0) {
            return report;
        }
        // each admission hands its threads from the reservation to the runners it created (held from inside
        // its transaction), so other workers see them free again at once rather than at this iteration's end
        Admitter admitter = new Admitter(admission, outage, signal, report, room, threads::unreserve, needs -> {
            if (needs > threads.size()) {
                return false;
            }
            threads.awaitFree(needs);
            return true;
        });
        try {
            return admitWithin(admitter, report);
        } finally {
            threads.unreserve(room - admitter.handedBack());
        }
    }

    private IterationReport admitWithin(Admitter admitter, IterationReport report) {
        int room = admitter.room();
        for (DueBypass due : steps.bypassedDue(Math.min(BYPASS_BATCH, room))) {
            if (admitter.takeThreads(due.cost())) {
                admitter.admittedBypassing(admitBypassed(due), due.cost());
            }
        }
        if (admitter.room() == 0) {
            return report;
        }
        // no more partitions than jobs this node can take: the rest stay unclaimed, first in line for any node
        List<ClaimedPartition> claimed = steps.claim(Math.min(settings.partitionBatchSize(), admitter.room()));
        report.claimed(claimed.size());
        List<String> laned = policies.lanedPolicyNames();
        if (claimed.isEmpty() && laned.isEmpty()) {
            return report;
        }
        PolicyStates states = policyState.states();
        Set<String> paused = states.paused();
        List<Long> pausedIds = new ArrayList<>();
        Map<String, List<ClaimedPartition>> byPolicy = new LinkedHashMap<>();
        claimed.forEach(p -> byPolicy.computeIfAbsent(p.policyName(), k -> new ArrayList<>()).add(p));
        long now = System.currentTimeMillis();
        for (Map.Entry<String, List<ClaimedPartition>> group : byPolicy.entrySet()) {
            if (paused.contains(group.getKey())) {
                group.getValue().forEach(p -> pausedIds.add(p.id()));
            } else if (policies.named(group.getKey()).isEmpty()) {
                // staged under a policy this deployment no longer declares: wait for it to come back
                group.getValue().forEach(p -> admitter.deny(new Denial(p.id(), p.policyName(), Denial.UNKNOWN_POLICY, Duration.ofSeconds(60), 0)));
            } else {
                Optional<EffectivePolicy> policy = held.effective(group.getKey());
                if (policy.isEmpty()) {
                    // a bad value written at runtime: the policy waits until it is fixed
                    group.getValue().forEach(p -> admitter.deny(heldBack(p)));
                    continue;
                }
                admitPolicy(policy.get(), group.getValue(), now, admitter);
            }
        }
        for (String name : laned) {
            if (paused.contains(name)) {
                continue;
            }
            Optional<EffectivePolicy> policy = held.effective(name);
            if (policy.isEmpty()) {
                denyHeldLanes(name, admitter, report);
            } else if (policy.get().hasLanes()) {
                // an operator's lane weights and minimums, in force at this iteration (ADR 0025)
                String laneOverrides = states.laneOverridesJson().get(name);
                admitLanes(laneOverrides == null ? policy.get()
                        : policy.get().withLaneOverrides(OverrideCodec.read(laneOverrides).inForce(now)), now, admitter, report);
            }
        }
        List<Denial> denials = admitter.denials();
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
    private void denyHeldLanes(String policyName, Admitter admitter, IterationReport report) {
        for (String lane : held.lanesWhileHeld(policyName)) {
            List<ClaimedPartition> claimed = steps.claimLane(policyName, lane, settings.partitionBatchSize());
            report.alsoClaimed(claimed.size());
            claimed.forEach(p -> admitter.deny(heldBack(p)));
        }
    }

    private static Denial heldBack(ClaimedPartition p) {
        return new Denial(p.id(), p.policyName(), Denial.INVALID_SETTINGS, Duration.ofSeconds(10), 0);
    }

    /** A policy's claimed partitions outside lanes, sharing what is scarce ({@link PolicyRound}). */
    private void admitPolicy(EffectivePolicy policy, List<ClaimedPartition> claimed, long now, Admitter admitter) {
        Scarcity scarcity = scarcity(policy, () -> capacity.inFlight(policy.name()));
        PolicyRound.admit(policy, claimed, scarcity.left(), scarcity.exhausted(), now, admitter);
    }

    /**
     * A policy with lanes: each lane claims its weight's part of the partition batch (at least one), so
     * the lanes together claim about as many partitions as a policy without lanes and admitting a share
     * costs as many transactions as a budget does there; then the lanes share what is scarce
     * ({@link LaneRound}), or, when nothing is, each admits as a policy without lanes.
     */
    private void admitLanes(EffectivePolicy policy, long now, Admitter admitter, IterationReport report) {
        if (admitter.room() == 0) {
            return; // this node's threads are taken: the lanes' partitions stay unclaimed for any node
        }
        int totalWeight = policy.lanes().stream().mapToInt(Lane::weight).sum();
        List<List<ClaimedPartition>> claimed = new ArrayList<>();
        for (Lane lane : policy.lanes()) {
            int limit = (int) Math.max(1, Math.ceil(Math.min(settings.partitionBatchSize(), admitter.room())
                    * (double) lane.weight() / totalWeight));
            List<ClaimedPartition> ofLane = steps.claimLane(policy.name(), lane.name(), limit);
            report.alsoClaimed(ofLane.size());
            claimed.add(PolicyRound.ordered(policy, ofLane, now));
        }
        if (claimed.stream().allMatch(List::isEmpty)) {
            return;
        }
        Map<String, Long> inFlightByLane = policy.capacity().isPresent() ? capacity.inFlightByLane(policy.name()) : Map.of();
        Scarcity scarcity = scarcity(policy, () -> inFlightByLane.values().stream().mapToLong(Long::longValue).sum());
        if (scarcity.left().isEmpty()) {
            claimed.forEach(ofLane -> PolicyRound.admit(policy, ofLane, OptionalInt.empty(), scarcity.exhausted(), now, admitter));
            return;
        }
        LaneClock clock = clocks.computeIfAbsent(policy.name(), k -> new LaneClock());
        new LaneRound(policy, claimed, admitter).admit(scarcity, inFlightByLane, () -> capacity.inFlightByLane(policy.name()), clock);
    }

    /** What bounds the policy this iteration; at a full capacity, a slot freeing on this node wakes the tick. */
    private Scarcity scarcity(EffectivePolicy policy, java.util.function.LongSupplier inFlight) {
        Scarcity scarcity = Scarcity.of(policy, inFlight);
        if (scarcity.full()) {
            signal.awaitSlot(policy.name());
        }
        return scarcity;
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
}
