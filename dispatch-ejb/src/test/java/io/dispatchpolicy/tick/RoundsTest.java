package io.dispatchpolicy.tick;

import io.dispatchpolicy.admission.AdmissionOutcome;
import io.dispatchpolicy.admission.AdmissionService;
import io.dispatchpolicy.domain.gate.ConcurrencyCap;
import io.dispatchpolicy.domain.lane.LaneClock;
import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.DueBypass;
import io.dispatchpolicy.node.DatabaseOutage;
import io.dispatchpolicy.node.TickSignal;
import io.dispatchpolicy.policy.EffectivePolicy;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Policy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tick's kinds of round, without a server or a database: a fake admission takes what each call
 * allows from in-memory partitions (or refuses, for a partition whose gates deny), and the tests assert
 * who got how much and who was denied with what — the arithmetic the system tests see through jobs.
 */
class RoundsTest {

    /** Partitions by id: their waiting jobs; a partition in {@code gated} is denied by its gates. */
    private static final class FakeAdmission implements AdmissionService {
        final Map<Long, Integer> pending = new HashMap<>();
        final Map<Long, Integer> admitted = new HashMap<>();
        final Set<Long> gated = new HashSet<>();
        final List<List<Long>> together = new ArrayList<>();
        int transactions;

        @Override
        public AdmissionOutcome admit(ClaimedPartition p, EffectivePolicy policy, int jobs, int slots, int room) {
            transactions++;
            if (gated.contains(p.id())) {
                return AdmissionOutcome.denied(ConcurrencyCap.FULL, Duration.ofSeconds(1));
            }
            int n = Math.min(Math.min(jobs, Math.min(slots, room)), pending.getOrDefault(p.id(), 0));
            pending.merge(p.id(), -n, Integer::sum);
            admitted.merge(p.id(), n, Integer::sum);
            return AdmissionOutcome.admitted(n);
        }

        @Override
        public List<AdmissionOutcome> admitTogether(List<ClaimedPartition> partitions, EffectivePolicy policy, int jobs, int slots,
                                                    int room) {
            together.add(partitions.stream().map(ClaimedPartition::id).toList());
            int before = transactions;
            List<AdmissionOutcome> outcomes = partitions.stream().map(p -> admit(p, policy, jobs, slots, room)).toList();
            transactions = before + 1;
            return outcomes;
        }

        int admitted(long id) {
            return admitted.getOrDefault(id, 0);
        }

        /** The jobs in flight per lane, as the capacity's recount reads them: every job admitted here is still running. */
        Map<String, Long> inFlightByLane(Map<Long, String> laneOf) {
            Map<String, Long> byLane = new HashMap<>();
            admitted.forEach((id, n) -> byLane.merge(laneOf.get(id), (long) n, Long::sum));
            return byLane;
        }

        @Override
        public boolean admitBypassed(DueBypass due) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void bypassRefused(long submissionId, String error) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int forceAdmit(long partitionId, int count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean failedAttempt(long submissionId, String error) {
            throw new UnsupportedOperationException();
        }
    }

    private final FakeAdmission admission = new FakeAdmission();
    private final IterationReport report = new IterationReport();
    private final Admitter admitter = new Admitter(admission, new DatabaseOutage(), new TickSignal(), report);

    private static EffectivePolicy policy(int batch, Integer budget, Integer capacity, List<Lane> lanes) {
        Policy declared = Policy.named("p").governs("j").partitionBy(ctx -> "k").build();
        return new EffectivePolicy(declared, batch, budget == null ? OptionalInt.empty() : OptionalInt.of(budget),
                capacity == null ? OptionalInt.empty() : OptionalInt.of(capacity), lanes, lanes.isEmpty() ? null : lanes.get(0).name(),
                List.of(), Optional.empty(), declared.retryStrategy(), declared.retries(), Map.of());
    }

    private ClaimedPartition partition(long id, int pending, int priority, String lane) {
        admission.pending.put(id, pending);
        return new ClaimedPartition(id, "p", "k" + id, pending, 0, 0, 0, priority, lane);
    }

    @Test
    void aHigherPriorityTakesWhatItCanOfTheBudgetBeforeALowerOneGetsAny() {
        List<ClaimedPartition> claimed = List.of(partition(1, 50, 0, ""), partition(2, 4, 5, ""), partition(3, 50, 0, ""));
        int admitted = PolicyRound.admit(policy(100, 10, null, List.of()), claimed, OptionalInt.of(10), Denial.TICK_CAP_EXHAUSTED, 0,
                admitter);
        assertThat(admitted).isEqualTo(10);
        assertThat(admission.admitted(2)).as("the priority-5 partition, all it had").isEqualTo(4);
        assertThat(admission.admitted(1) + admission.admitted(3)).isEqualTo(6);
        assertThat(admission.admitted(1)).isEqualTo(3);
        assertThat(report.admitted()).isEqualTo(10);
    }

    @Test
    void oneTierSharesTheBudgetAndTopsUpWhatAPartitionCouldNotUse() {
        List<ClaimedPartition> claimed = List.of(partition(1, 1, 0, ""), partition(2, 50, 0, ""), partition(3, 50, 0, ""));
        int admitted = PolicyRound.admit(policy(100, 12, null, List.of()), claimed, OptionalInt.of(12), Denial.TICK_CAP_EXHAUSTED, 0,
                admitter);
        assertThat(admitted).as("the whole budget: the share partition 1 could not use went to the others").isEqualTo(12);
        assertThat(admission.admitted(1)).isEqualTo(1);
        assertThat(admission.admitted(2) + admission.admitted(3)).isEqualTo(11);
        assertThat(admitter.denials()).isEmpty();
    }

    @Test
    void partitionsTheBudgetDoesNotReachAreDeniedKeepingTheirPlace() {
        List<ClaimedPartition> claimed = IntStream.rangeClosed(1, 5).mapToObj(i -> partition(i, 10, 0, "")).toList();
        PolicyRound.admit(policy(100, 2, null, List.of()), claimed, OptionalInt.of(2), Denial.CAPACITY_FULL, 0, admitter);
        assertThat(admission.admitted.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2);
        assertThat(admitter.denials()).hasSize(3).allSatisfy(d -> {
            assertThat(d.reason()).isEqualTo(Denial.CAPACITY_FULL);
            assertThat(d.retryAfter()).isEqualTo(Duration.ZERO);
            assertThat(d.restoreCheckedAtMillis()).as("never checked: back to the front of the claim").isEqualTo(-1);
        });
    }

    @Test
    void withNothingScarceSmallPartitionsShareATransactionUntilTogetherTheyWaitForABatch() {
        List<ClaimedPartition> claimed = IntStream.rangeClosed(1, 10).mapToObj(i -> partition(i, 3, 0, "")).toList();
        int admitted = PolicyRound.admit(policy(10, null, null, List.of()), claimed, OptionalInt.empty(), Denial.TICK_CAP_EXHAUSTED, 0,
                admitter);
        assertThat(admitted).isEqualTo(30);
        assertThat(admission.together).containsExactly(List.of(1L, 2L, 3L, 4L), List.of(5L, 6L, 7L, 8L), List.of(9L, 10L));
        assertThat(admission.transactions).isEqualTo(3);
    }

    @Test
    void theNodesFreeThreadsAreSharedByThePartitionsReachedAndTheRestKeepTheirPlaceSayingWhy() {
        Admitter threeThreads = new Admitter(admission, new DatabaseOutage(), new TickSignal(), report, 3);
        List<ClaimedPartition> claimed = IntStream.rangeClosed(1, 4).mapToObj(i -> partition(i, 2, 0, "")).toList();
        int admitted = PolicyRound.admit(policy(10, null, null, List.of()), claimed, OptionalInt.empty(), Denial.TICK_CAP_EXHAUSTED, 0,
                threeThreads);
        assertThat(admitted).isEqualTo(3);
        assertThat(admission.together).as("8 wanted of 3 threads: a job each for the first three, in one transaction")
                .containsExactly(List.of(1L, 2L, 3L));
        assertThat(List.of(admission.admitted(1), admission.admitted(2), admission.admitted(3), admission.admitted(4)))
                .containsExactly(1, 1, 1, 0);
        assertThat(threeThreads.room()).isZero();
        assertThat(threeThreads.denials()).extracting(d -> d.partitionId() + " " + d.reason())
                .containsExactly("4 " + Denial.NODE_THREADS_BUSY);
    }

    @Test
    void busyPartitionsShareTheFreeThreadsEquallyInOneTransaction() {
        List<Integer> handedBack = new ArrayList<>();
        Admitter sixThreads = new Admitter(admission, new DatabaseOutage(), new TickSignal(), report, 6, handedBack::add);
        List<ClaimedPartition> claimed = IntStream.rangeClosed(1, 3).mapToObj(i -> partition(i, 100, 0, "")).toList();
        int admitted = PolicyRound.admit(policy(100, null, null, List.of()), claimed, OptionalInt.empty(), Denial.TICK_CAP_EXHAUSTED, 0,
                sixThreads);
        assertThat(admitted).isEqualTo(6);
        assertThat(List.of(admission.admitted(1), admission.admitted(2), admission.admitted(3))).containsExactly(2, 2, 2);
        assertThat(admission.together).containsExactly(List.of(1L, 2L, 3L));
        assertThat(admission.transactions).isEqualTo(1);
        assertThat(sixThreads.denials()).isEmpty();
        assertThat(handedBack).as("the reservation's threads go to the runners as the transaction admits them").containsExactly(2, 2, 2);
        assertThat(sixThreads.handedBack()).isEqualTo(6);
    }

    @Test
    void theRemainderOfAnEqualShareOfThreadsGoesToTheFirstPartitionsWithMoreWaiting() {
        Admitter sevenThreads = new Admitter(admission, new DatabaseOutage(), new TickSignal(), report, 7);
        List<ClaimedPartition> claimed = List.of(partition(1, 100, 0, ""), partition(2, 100, 0, ""));
        int admitted = PolicyRound.admit(policy(100, null, null, List.of()), claimed, OptionalInt.empty(), Denial.TICK_CAP_EXHAUSTED, 0,
                sevenThreads);
        assertThat(admitted).isEqualTo(7);
        assertThat(List.of(admission.admitted(1), admission.admitted(2))).containsExactly(4, 3);
        assertThat(admission.transactions).as("the shares together, then the remainder").isEqualTo(2);
        assertThat(sevenThreads.room()).isZero();
        assertThat(sevenThreads.denials()).isEmpty();
    }

    @Test
    void aTopUpThatFindsNoThreadLeavesAnAdmittedPartitionUndenied() {
        Admitter fiveThreads = new Admitter(admission, new DatabaseOutage(), new TickSignal(), report, 5);
        List<ClaimedPartition> claimed = List.of(partition(1, 1, 0, ""), partition(2, 50, 0, ""), partition(3, 50, 0, ""));
        int admitted = PolicyRound.admit(policy(100, 12, null, List.of()), claimed, OptionalInt.of(12), Denial.TICK_CAP_EXHAUSTED, 0,
                fiveThreads);
        assertThat(admitted).as("the budget is 12, the threads 5").isEqualTo(5);
        assertThat(admission.admitted(1) + admission.admitted(2)).isEqualTo(5);
        assertThat(fiveThreads.denials()).extracting(d -> d.partitionId() + " " + d.reason())
                .as("partition 2's top-up found no thread: it admitted, so only the unreached partition 3 is denied")
                .containsExactly("3 " + Denial.NODE_THREADS_BUSY);
    }

    /** Lanes a, b, c weighing 6:3:1, one partition of 100 jobs each (ids 1, 2, 3), a capacity of 10 and nothing in flight. */
    private int sixThreeOneWithTenFreeSlots() {
        List<Lane> lanes = List.of(new Lane("a", 6, 0), new Lane("b", 3, 0), new Lane("c", 1, 0));
        EffectivePolicy policy = policy(100, null, 10, lanes);
        List<List<ClaimedPartition>> claimed = List.of(List.of(partition(1, 100, 0, "a")), List.of(partition(2, 100, 0, "b")),
                List.of(partition(3, 100, 0, "c")));
        return new LaneRound(policy, claimed, admitter).admit(Scarcity.of(policy, () -> 0), Map.of(),
                () -> admission.inFlightByLane(Map.of(1L, "a", 2L, "b", 3L, "c")), new LaneClock());
    }

    @Test
    void lanesShareTheFreeSlotsByWeight() {
        assertThat(sixThreeOneWithTenFreeSlots()).isEqualTo(10);
        assertThat(List.of(admission.admitted(1), admission.admitted(2), admission.admitted(3))).containsExactly(6, 3, 1);
    }

    @Test
    void aLaneWhoseGatesDenyHandsItsShareToTheOthers() {
        admission.gated.add(1L);
        assertThat(sixThreeOneWithTenFreeSlots()).as("no slot idle while a lane can use it").isEqualTo(10);
        assertThat(admission.admitted(1)).isZero();
        assertThat(admission.admitted(2) + admission.admitted(3)).isEqualTo(10);
        assertThat(admitter.denials()).extracting(Denial::partitionId, Denial::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, ConcurrencyCap.FULL));
    }

    @Test
    void jobsEndingMidIterationAreRefilledOnceMoreAndTheLanesKeepTheirShares() {
        List<Lane> lanes = List.of(new Lane("critical", 6, 0), new Lane("default", 3, 0), new Lane("bulk", 1, 0));
        EffectivePolicy policy = policy(100, null, 10, lanes);
        List<List<ClaimedPartition>> claimed = List.of(List.of(partition(1, 100, 0, "critical")),
                List.of(partition(2, 100, 0, "default")), List.of(partition(3, 100, 0, "bulk")));
        // every job ends before the round counts again: each count finds the whole capacity free
        int admitted = new LaneRound(policy, claimed, admitter).admit(Scarcity.of(policy, () -> 0), Map.of(), Map::of,
                new LaneClock());
        assertThat(admitted).as("the first count's 10, then one capacity's worth more, not the partitions' batches").isEqualTo(20);
        assertThat(List.of(admission.admitted(1), admission.admitted(2), admission.admitted(3))).containsExactly(12, 6, 2);
    }

    @Test
    void whenTheCapacityIsFullEveryWaitingPartitionIsDeniedCapacityFull() {
        List<Lane> lanes = List.of(new Lane("a", 1, 0), new Lane("b", 1, 0));
        EffectivePolicy policy = policy(100, null, 4, lanes);
        List<List<ClaimedPartition>> claimed = List.of(List.of(partition(1, 5, 0, "a")), List.of(partition(2, 5, 0, "b")));
        Scarcity scarcity = Scarcity.of(policy, () -> 4);
        assertThat(scarcity.full()).isTrue();
        int admitted = new LaneRound(policy, claimed, admitter).admit(scarcity, Map.of("a", 2L, "b", 2L),
                () -> Map.of("a", 2L, "b", 2L), new LaneClock());
        assertThat(admitted).isZero();
        assertThat(admitter.denials()).extracting(Denial::reason).containsOnly(Denial.CAPACITY_FULL).hasSize(2);
    }

    @Test
    void theScarcerOfCapacityAndBudgetBindsAndNamesTheDenial() {
        assertThat(Scarcity.of(policy(100, 5, 10, List.of()), () -> 2))
                .isEqualTo(new Scarcity(OptionalInt.of(5), Denial.TICK_CAP_EXHAUSTED, false));
        // exactly as scarce: the budget names it (its partitions keep their place either way)
        assertThat(Scarcity.of(policy(100, 5, 10, List.of()), () -> 5))
                .isEqualTo(new Scarcity(OptionalInt.of(5), Denial.TICK_CAP_EXHAUSTED, false));
        assertThat(Scarcity.of(policy(100, 5, 10, List.of()), () -> 8))
                .isEqualTo(new Scarcity(OptionalInt.of(2), Denial.CAPACITY_FULL, false));
        assertThat(Scarcity.of(policy(100, null, 10, List.of()), () -> 12))
                .isEqualTo(new Scarcity(OptionalInt.of(0), Denial.CAPACITY_FULL, true));
        assertThat(Scarcity.of(policy(100, null, null, List.of()), () -> { throw new AssertionError("not counted"); }))
                .isEqualTo(new Scarcity(OptionalInt.empty(), Denial.TICK_CAP_EXHAUSTED, false));
    }
}
