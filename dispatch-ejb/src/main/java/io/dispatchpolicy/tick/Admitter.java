package io.dispatchpolicy.tick;

import io.dispatchpolicy.admission.AdmissionOutcome;
import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.admission.JobAdmissionException;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.policy.EffectivePolicy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every kind of round does with one partition, or a group of them, for one iteration: hands it to the
 * admission (each call a transaction of its own), settles the outcome and collects the iteration's
 * denials and admissions. A round decides who gets how much; this decides nothing.
 */
final class Admitter {

    private static final Logger LOG = Logger.getLogger(Admitter.class.getName());
    /** A partition whose admission failed for a reason no single job explains waits this long. */
    static final Duration FAILURE_BACKOFF = Duration.ofSeconds(5);
    /** A job that costs more threads than this node admits at all is looked at again after this long (another node may). */
    static final Duration COST_EXCEEDS_NODE_BACKOFF = Duration.ofSeconds(60);

    private final AdmissionService admission;
    private final DatabaseOutage outage;
    private final TickSignal signal;
    private final IterationReport report;
    private final List<Denial> denials = new ArrayList<>();
    /**
     * This node's batch threads left to fill in this iteration ({@code BatchThreads}): no job is admitted past
     * them. A job takes its cost of them (ADR 0035); everything a round shares here is in slots, one per
     * thread, so with jobs of cost 1 a slot is a job.
     */
    private int room;
    /**
     * The next job of a partition needs more threads than are left ({@code needs}): true when this node has
     * that many at all, and then it holds back what frees until they are free at once; false when it never
     * will (its {@code dispatch.node-threads} is lower than the job's cost).
     */
    private final java.util.function.IntPredicate awaitFree;
    /** Partitions this iteration already handed to the admission: a top-up that finds no thread leaves them be. */
    private final java.util.Set<Long> served = new java.util.HashSet<>();
    /** Slots admitted per partition in this iteration. */
    private final java.util.Map<Long, Integer> admittedBy = new java.util.HashMap<>();

    /** Given the threads each admission took from the iteration's reservation (its runners hold them now). */
    private final java.util.function.IntConsumer handBack;
    /**
     * Counted, not derived from {@link #room}: a bypassing restart whose admission throws (a database
     * outage) took a thread from the room that nothing holds, and the iteration's end must give it back.
     */
    private int handedBack;
    /** False when the node's threads are not counted ({@code dispatch.node-threads=unlimited}): nothing to hand back. */
    private final boolean counted;

    Admitter(AdmissionService admission, DatabaseOutage outage, TickSignal signal, IterationReport report) {
        this(admission, outage, signal, report, Integer.MAX_VALUE);
    }

    Admitter(AdmissionService admission, DatabaseOutage outage, TickSignal signal, IterationReport report, int room) {
        this(admission, outage, signal, report, room, n -> { });
    }

    Admitter(AdmissionService admission, DatabaseOutage outage, TickSignal signal, IterationReport report, int room,
             java.util.function.IntConsumer handBack) {
        this(admission, outage, signal, report, room, handBack, threads -> true);
    }

    Admitter(AdmissionService admission, DatabaseOutage outage, TickSignal signal, IterationReport report, int room,
             java.util.function.IntConsumer handBack, java.util.function.IntPredicate awaitFree) {
        this.awaitFree = awaitFree;
        this.admission = admission;
        this.outage = outage;
        this.signal = signal;
        this.report = report;
        this.room = room;
        this.counted = room != Integer.MAX_VALUE;
        this.handBack = handBack;
    }

    /** Threads handed back from the reservation so far: what the iteration's admissions' runners hold. */
    int handedBack() {
        return handedBack;
    }

    /** A due restart that bypassed the gates took the {@code threads} {@link #takeThreads} gave it ({@code admitted} 1) or not (0). */
    void admittedBypassing(int admitted, int threads) {
        report.admitted(admitted);
        if (admitted == 0) {
            room += threads; // nothing holds the threads: the iteration may still fill them
        } else {
            taken(threads);
        }
    }

    private void taken(int n) {
        if (n > 0 && counted) {
            handedBack += n;
            handBack.accept(n);
        }
    }

    /** Free batch threads of this node left to this iteration. */
    int room() {
        return room;
    }

    /**
     * The slots each of {@code partitions} may fill when this node's free threads bind: its equal part of them
     * (at least one; the claim took no more partitions than there is room), so every partition reached gets
     * a job and they share one transaction, instead of the first taking every thread and the rest being
     * denied; {@link Integer#MAX_VALUE} when the room covers a batch of each.
     */
    int shareOfRoom(List<ClaimedPartition> partitions, int batch) {
        long wanted = partitions.stream().mapToLong(p -> Math.min(batch, p.pending())).sum();
        if (wanted <= room || partitions.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        return Math.max(1, Math.min(batch, room / partitions.size()));
    }

    /** Slots this iteration admitted of partition {@code id} so far. */
    int admittedFrom(long id) {
        return admittedBy.getOrDefault(id, 0);
    }

    /** One job that bypasses the gates (a due restart) may take its {@code threads}: @return whether they are left. */
    boolean takeThreads(int threads) {
        if (room < threads) {
            return false;
        }
        room -= threads;
        return true;
    }

    /** The iteration's denials so far, written back in one statement at its end. */
    List<Denial> denials() {
        return denials;
    }

    void deny(Denial denial) {
        denials.add(denial);
    }

    /** The tick found {@code policy} at its capacity: a slot of it freeing on this node wakes the tick. */
    void awaitSlot(String policy) {
        signal.awaitSlot(policy);
    }

    /** A denial that leaves the partition at the front of the next claim: nothing of its own kept it back. */
    void keepPlace(ClaimedPartition p, String reason) {
        long previous = p.previousCheckedAtMillis();
        denials.add(new Denial(p.id(), p.policyName(), reason, Duration.ZERO, previous == 0 ? -1 : previous));
    }

    /**
     * Admits up to {@code jobs} of one partition's jobs, filling up to {@code slots} (its share of what the round
     * shares; {@link Integer#MAX_VALUE} for none), in a transaction of its own; @return slots admitted.
     */
    int admitOne(ClaimedPartition p, EffectivePolicy policy, int jobs, int slots) {
        if (room <= 0) {
            if (!served.contains(p.id())) {
                // every thread of this node is taken: the partition keeps its place for any node with a free one
                keepPlace(p, Denial.NODE_THREADS_BUSY);
            }
            return 0;
        }
        served.add(p.id());
        try {
            return settle(p, policy, admission.admit(p, policy, jobs, slots, room));
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

    /** One group's transaction; when it fails, each partition again on its own, so a failure stays with its partition. */
    int admitGroup(EffectivePolicy policy, List<ClaimedPartition> group, int batch, int slots) {
        long wanted = group.stream().mapToLong(p -> Math.min(Math.min(batch, slots), p.pending())).sum();
        if (group.size() > 1 && wanted <= room) {
            try {
                group.forEach(p -> served.add(p.id()));
                List<AdmissionOutcome> outcomes = admission.admitTogether(group, policy, batch, slots, room);
                int admitted = 0;
                for (int i = 0; i < group.size(); i++) {
                    admitted += settle(group.get(i), policy, outcomes.get(i));
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
            admitted += admitOne(p, policy, batch, slots);
        }
        return admitted;
    }

    /** A partition's outcome: its denial, if any, for the iteration's denials; @return slots admitted. */
    private int settle(ClaimedPartition p, EffectivePolicy policy, AdmissionOutcome outcome) {
        if (outcome.needs() > 0) {
            if (awaitFree.test(outcome.needs())) {
                // its turn, and its threads are not free at once: the rest of this iteration admits nothing, and
                // the node holds back what frees until they are, so the cheap jobs behind it cannot starve it
                room = 0;
                keepPlace(p, Denial.NODE_THREADS_BUSY);
            } else {
                denials.add(new Denial(p.id(), p.policyName(), Denial.COST_EXCEEDS_NODE, COST_EXCEEDS_NODE_BACKOFF, 0));
            }
            return 0;
        }
        if (outcome.denied()) {
            if (Denial.CAPACITY_FULL.equals(outcome.reason()) || Denial.LANE_LIMIT.equals(outcome.reason())) {
                // another worker or node took the last slots after this iteration counted them (or its lane's)
                signal.awaitSlot(policy.name());
                keepPlace(p, outcome.reason());
            } else {
                denials.add(new Denial(p.id(), p.policyName(), outcome.reason(), outcome.retryAfter(), 0));
            }
        }
        report.admitted(outcome.admitted());
        room -= outcome.slots();
        taken(outcome.slots());
        admittedBy.merge(p.id(), outcome.slots(), Integer::sum);
        return outcome.slots();
    }
}
