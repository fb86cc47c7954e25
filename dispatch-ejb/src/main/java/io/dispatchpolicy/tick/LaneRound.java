package io.dispatchpolicy.tick;

import io.dispatchpolicy.domain.gate.TickBudget;
import io.dispatchpolicy.domain.lane.LaneClock;
import io.dispatchpolicy.domain.lane.LaneLimits;
import io.dispatchpolicy.domain.lane.LaneShares;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.spi.Lane;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The round of a policy with lanes: each lane has claimed its own partitions, then what is scarce — the
 * free slots of the capacity, or the tick budget, whichever is smaller ({@link Scarcity}) — is shared
 * between the lanes with work by {@link LaneShares} (minimums first, then by weight, from where each
 * lane's virtual time stands: {@link LaneClock}), and each lane admits its share from its partitions in
 * order. A lane whose gates leave part of its share unused hands it to the others in the next round, so
 * no slot stays idle while any lane can use it; when the capacity binds and jobs shorter than an
 * iteration free slots meanwhile, it counts again and goes on, for at most one more capacity's worth. With neither a capacity nor a budget
 * nothing is scarce, and every lane admits as a policy without lanes does ({@link PolicyRound}).
 */
final class LaneRound {

    /** One lane in this round: its partitions still to visit, and what it holds and was given. */
    private static final class LaneQueue {
        final Lane lane;
        final Deque<ClaimedPartition> queue;
        long inFlight;
        int admitted;
        int sinceCount;
        double start;

        LaneQueue(Lane lane, List<ClaimedPartition> ordered) {
            this.lane = lane;
            this.queue = new ArrayDeque<>(ordered);
        }
    }

    private final EffectivePolicy policy;
    private final Admitter admitter;
    private final List<LaneQueue> lanes = new ArrayList<>();
    /** A partition admits at most one batch per iteration, as without lanes: that bounds the top-ups. */
    private final Map<Long, Integer> allowance = new HashMap<>();
    private final Set<Long> admittedFrom = new HashSet<>();
    /** Whether the current round visited any partition: a round that visits none ends the sharing. */
    private boolean visited;

    /** @param claimed per lane of the policy (its order), the partitions it claimed, in admission order */
    LaneRound(EffectivePolicy policy, List<List<ClaimedPartition>> claimed, Admitter admitter) {
        this.policy = policy;
        this.admitter = admitter;
        int batch = policy.admissionBatchSize();
        for (int i = 0; i < policy.lanes().size(); i++) {
            LaneQueue lane = new LaneQueue(policy.lanes().get(i), claimed.get(i));
            lane.queue.forEach(p -> allowance.put(p.id(), Math.min(batch, p.pending())));
            lanes.add(lane);
        }
    }

    /**
     * Shares what is scarce between the lanes, round after round, until it is used up or no lane can use
     * more; the partitions left are denied with the reason it ran out of, keeping their place.
     *
     * @param firstCount     the policy's jobs in flight per lane as the iteration counted them
     * @param inFlightByLane counts them again, when the capacity binds and its slots ran out
     * @return admitted
     */
    int admit(Scarcity scarcity, Map<String, Long> firstCount, java.util.function.Supplier<Map<String, Long>> inFlightByLane,
              LaneClock clock) {
        String[] names = lanes.stream().map(l -> l.lane.name()).toArray(String[]::new);
        Set<String> active = new HashSet<>();
        for (LaneQueue l : lanes) {
            l.inFlight = firstCount.getOrDefault(l.lane.name(), 0L);
            if (l.queue.isEmpty()) {
                clock.idle(l.lane.name());
            } else {
                active.add(l.lane.name());
            }
        }
        double[] start = clock.times(names, active);
        for (int i = 0; i < lanes.size(); i++) {
            lanes.get(i).start = start[i];
        }
        OptionalInt budget = policy.tickAdmissionBudget();
        int budgetLeft = budget.isPresent() ? budget.getAsInt() : Integer.MAX_VALUE;
        int left = scarcity.left().getAsInt();
        // Counting again refills at most one capacity's worth more in this iteration: with jobs far shorter than
        // an iteration it could otherwise go on for seconds, until its partitions' per-iteration batches ran out —
        // and those run out first for the lane with the fewest partitions per unit of weight, which then loses
        // its share (measured: 6 : 3 : 1 admitted as 4 : 4 : 2), while every other policy waits for the round
        // to end. The next iteration claims again, and the lanes' clock carries their shares across iterations.
        int refillLeft = scarcity.capacityBinds() ? policy.capacity().getAsInt() : 0;
        int admitted = 0;
        while (true) {
            if (left == 0) {
                if (!scarcity.capacityBinds() || lanes.stream().allMatch(l -> l.queue.isEmpty()) || budgetLeft == 0
                        || refillLeft == 0) {
                    break;
                }
                // Jobs shorter than an iteration free slots while it runs: count again and go on with what
                // is free now, rather than leave those slots idle until the next iteration's count.
                Map<String, Long> counted = inFlightByLane.get();
                left = Math.min(Math.min(budgetLeft, refillLeft),
                        Scarcity.free(policy, counted.values().stream().mapToLong(Long::longValue).sum()));
                refillLeft -= left;
                if (left == 0) {
                    admitter.awaitSlot(policy.name());
                    break;
                }
                for (LaneQueue l : lanes) {
                    l.inFlight = counted.getOrDefault(l.lane.name(), 0L);
                    l.sinceCount = 0;
                }
            }
            long[] holding = lanes.stream().mapToLong(l -> l.inFlight + l.sinceCount).toArray();
            // lending and borrowing limits (ADR 0047): planned here so no lane is given what it may not take; the
            // admission holds them under the capacity's lock. What a lane keeps binds the capacity's free slots
            // only: with the tick budget binding, the admission's own check says where it stops.
            boolean limited = LaneLimits.any(policy.lanes());
            long[] kept = new long[lanes.size()];
            long[] ceiling = null;
            if (limited) {
                ceiling = new long[lanes.size()];
                for (int i = 0; i < lanes.size(); i++) {
                    Lane lane = lanes.get(i).lane;
                    kept[i] = scarcity.capacityBinds() ? LaneLimits.kept(lane, holding[i]) : 0;
                    ceiling[i] = LaneLimits.ceiling(policy.lanes(), policy.capacity().getAsInt(), lane);
                }
            }
            int[] given = LaneShares.share(left, column(l -> l.lane.weight()), column(l -> l.lane.min()), holding,
                    column(l -> l.queue.stream().mapToInt(p -> allowance.get(p.id())).sum()),
                    lanes.stream().mapToDouble(l -> l.start + l.admitted / (double) l.lane.weight()).toArray(), kept, ceiling);
            visited = false;
            int round = 0;
            for (int i = 0; i < lanes.size(); i++) {
                round += admitShare(lanes.get(i), given[i]);
            }
            // a costly job may take more than its lane was given (one job past a share, ADR 0035): never below none
            left = Math.max(0, left - round);
            budgetLeft = Math.max(0, budgetLeft - round);
            admitted += round;
            if (!visited) {
                break;
            }
        }
        Map<String, Long> holding = new HashMap<>();
        lanes.forEach(l -> holding.put(l.lane.name(), l.inFlight + l.sinceCount));
        long used = holding.values().stream().mapToLong(Long::longValue).sum();
        for (LaneQueue l : lanes) {
            // a lane held back by its limits while the capacity has room says so (ADR 0047)
            String reason = scarcity.capacityBinds() && LaneLimits.any(policy.lanes()) && used < policy.capacity().getAsInt()
                    && LaneLimits.room(policy.lanes(), policy.capacity().getAsInt(), holding, l.lane.name()) <= 0
                    ? io.dispatchpolicy.domain.model.Denial.LANE_LIMIT : scarcity.exhausted();
            l.queue.stream().filter(p -> !admittedFrom.contains(p.id())).forEach(p -> admitter.keepPlace(p, reason));
            clock.advance(l.lane.name(), l.admitted, l.lane.weight());
        }
        return admitted;
    }

    /** One lane admits its share from its partitions, each once this round; @return admitted. */
    private int admitShare(LaneQueue l, int given) {
        TickBudget share = new TickBudget(OptionalInt.of(given), l.queue.size());
        int admitted = 0;
        for (int k = l.queue.size(); k > 0 && !share.exhausted() && !l.queue.isEmpty(); k--) {
            ClaimedPartition p = l.queue.poll();
            visited = true;
            // fair by usage, the lane's least used partition takes what it can first (as PolicyRound, ADR 0048)
            int limit = policy.usageHalfLifeSeconds().isPresent() ? share.remaining() : share.nextShare();
            int got = admitter.admitOne(p, policy, Math.max(1, allowance.get(p.id())), limit);
            share.use(got);
            admitted += got;
            l.admitted += got;
            l.sinceCount += got;
            allowance.merge(p.id(), -got, Integer::sum);
            if (got > 0) {
                admittedFrom.add(p.id());
            }
            if (got == limit && allowance.get(p.id()) > 0) {
                l.queue.addLast(p); // it took all it was given and may take more: it may get more next round
            }
        }
        return admitted;
    }

    private int[] column(java.util.function.ToIntFunction<LaneQueue> f) {
        return lanes.stream().mapToInt(f).toArray();
    }
}
