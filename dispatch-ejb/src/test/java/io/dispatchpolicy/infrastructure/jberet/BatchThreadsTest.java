package io.dispatchpolicy.infrastructure.jberet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue a node may keep beyond its threads: the jobs that end within the wait both at the node's
 * recent rate of ends and by its jobs' recent durations, capped at four times the threads; and the rate
 * itself, which falls within a fraction of a second once jobs stop ending.
 */
class BatchThreadsTest {

    private static final long MS = 1_000_000L;

    @Test
    void jobsOfSecondsQueueNoneEvenRightAfterABurstOfThemEnded() {
        // 9 threads busy with jobs of 5 s end 1.8 jobs a second: 0.18 in 100 ms
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 1.8, 5_000 * MS)).isZero();
        // nine of them started together and just ended together: the rate says 25 a second, the durations 0.18
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 25, 5_000 * MS)).isZero();
    }

    @Test
    void shortJobsThatStoppedEndingQueueNone() {
        // every thread turned to long jobs: the short jobs' durations still say 9 x 100 / 2, the rate says 0.5
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 5, 2 * MS)).isZero();
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 10, 2 * MS)).as("one job in the wait").isEqualTo(1);
    }

    @Test
    void shortJobsQueueWhatEndsInTheWaitUpToFourTimesTheThreads() {
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 300, 30 * MS)).as("by the rate: 30; by durations: 30").isEqualTo(30);
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 300, 60 * MS)).as("by durations: 15").isEqualTo(15);
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 1_000, 2 * MS)).as("the cap: 4 x 9").isEqualTo(36);
    }

    @Test
    void nothingKnownOrNoWaitQueuesNone() {
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 0, 2 * MS)).as("nothing ended lately").isZero();
        assertThat(BatchThreads.queueAllowance(9, 100 * MS, 1_000, Double.NaN)).as("no job has run").isZero();
        assertThat(BatchThreads.queueAllowance(9, 0, 1_000, 2 * MS)).as("dispatch.node-queue-wait=off").isZero();
    }

    @Test
    void heldJobsTakeTheirCostInThreadsAndACostlyJobInLineGetsTheThreadsThatFree() {
        LocalRunners runners = new LocalRunners();
        runners.signal = new io.dispatchpolicy.node.TickSignal();
        BatchThreads threads = new BatchThreads() {
            @Override
            int room() {
                return 9;
            }
        };
        threads.runners = runners;
        TestRunners.hold(runners, 1, true, 4);
        TestRunners.hold(runners, 2, true, 4);
        TestRunners.hold(runners, 2, false, 4); // recovery's second runner of one execution takes no more
        assertThat(runners.heldThreads()).as("two jobs of cost 4").isEqualTo(8);
        assertThat(threads.free()).isEqualTo(1);

        threads.awaitFree(4); // the next job in line costs 4: the one thread free is not handed out
        assertThat(threads.reserve(Integer.MAX_VALUE)).isZero();
        TestRunners.release(runners, 2);
        assertThat(runners.heldThreads()).as("one of recovery's two runners left").isEqualTo(8);
        assertThat(threads.reserve(Integer.MAX_VALUE)).isZero();
        TestRunners.release(runners, 2);
        assertThat(runners.heldThreads()).isEqualTo(4);
        int reserved = threads.reserve(Integer.MAX_VALUE);
        assertThat(reserved).as("five free at once: enough for it").isEqualTo(5);
        threads.unreserve(reserved);
        TestRunners.release(runners, 1);
        assertThat(runners.heldThreads()).isZero();
        assertThat(threads.reserve(3)).as("nothing awaited any more").isEqualTo(3);
    }

    @Test
    void theRateOfEndsIsTheSteadyRateAndFallsWhenJobsStopEnding() {
        LocalRunners runners = new LocalRunners();
        long t = 0;
        for (int i = 0; i < 2_000; i++) { // one end a millisecond for two seconds: 1,000 a second, each held 8 ms
            t += MS;
            runners.ended(t, 8 * MS);
        }
        assertThat(runners.endRate(t)).isBetween(990.0, 1_010.0);
        assertThat(runners.endRate(t + 250 * MS)).as("a half-life later").isBetween(495.0, 505.0);
        assertThat(runners.endRate(t + 2_000 * MS)).as("two seconds without an end").isLessThan(4.0);
        assertThat(runners.occupancyNanos()).isEqualTo(8.0 * MS);
        assertThat(new LocalRunners().endRate(t)).isZero();
        assertThat(new LocalRunners().occupancyNanos()).isNaN();
    }
}
