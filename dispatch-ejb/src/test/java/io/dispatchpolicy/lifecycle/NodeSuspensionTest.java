package io.dispatchpolicy.lifecycle;

import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.jberet.LocalRunners;
import io.dispatchpolicy.infrastructure.jberet.TestRunners;
import io.dispatchpolicy.node.ServerSuspension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * This node through a server suspend (ADR 0021), without a server: held runners, a job-wait, the stop of
 * what is left, and a resume in the middle of the drain.
 */
class NodeSuspensionTest {

    private final ServerSuspension suspension = new ServerSuspension();
    private final LocalRunners runners = new LocalRunners();
    private final List<Long> stopped = new CopyOnWriteArrayList<>();
    private final AtomicInteger resumed = new AtomicInteger();
    private final ExecutorService worker = Executors.newSingleThreadExecutor();

    /** JBeret's stop, as the engine asks it: the runner of a stopped job lets go. */
    private final JobRuntime jobs = new JobRuntime() {
        @Override
        public void stop(long executionId) {
            stopped.add(executionId);
            TestRunners.release(runners, executionId);
        }
    };

    private NodeSuspension node(Duration jobWait) {
        return new NodeSuspension(suspension, runners, jobs, () -> jobWait, worker, resumed::incrementAndGet);
    }

    @AfterEach
    void stopWorker() throws InterruptedException {
        worker.shutdownNow();
        worker.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void aJobThatEndsWithinTheWaitIsNotStoppedAndQueuedOnesDoNotStartUntilTheResume() throws Exception {
        NodeSuspension node = node(Duration.ofSeconds(30));
        TestRunners.hold(runners, 7, true);
        node.prepare().toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(suspension.whileAdmitting(() -> "admitted")).isEmpty();

        CompletableFuture<Void> stage = node.suspend(false).toCompletableFuture();
        assertThat(stage).isNotDone();
        TestRunners.release(runners, 7); // the job ends on its own
        stage.get(5, TimeUnit.SECONDS);

        assertThat(stopped).isEmpty();
        assertThat(runners.startsHeld()).as("queued runners wait for the resume").isTrue();
        node.resume();
        assertThat(runners.startsHeld()).isFalse();
        assertThat(suspension.whileAdmitting(() -> "admitted")).contains("admitted");
        await().atMost(Duration.ofSeconds(5)).until(() -> resumed.get() == 1);
    }

    @Test
    void aSuspendThatBeginsAShutdownStartsNoQueuedJobButLetsRunningOnesFinish() throws Exception {
        NodeSuspension node = node(Duration.ofSeconds(30));
        TestRunners.hold(runners, 7, true);
        TestRunners.hold(runners, 8, false);
        node.prepare().toCompletableFuture().get(5, TimeUnit.SECONDS);

        CompletableFuture<Void> stage = node.suspend(true).toCompletableFuture();
        assertThat(runners.startsHeld()).as("a queued runner that gets a thread now lets go instead of starting").isTrue();
        assertThat(stage).isNotDone();
        TestRunners.release(runners, 8); // the queued runner let go without starting
        TestRunners.release(runners, 7); // the running job ended on its own
        stage.get(5, TimeUnit.SECONDS);

        assertThat(stopped).isEmpty();
        assertThat(runners.startsHeld()).isTrue();
    }

    @Test
    void aServerStoppingWithoutASuspendAdmitsNothingStartsNoQueuedJobAndWaitsForTheRunningOnes() throws Exception {
        NodeSuspension node = node(Duration.ofSeconds(30));
        TestRunners.hold(runners, 7, true);
        TestRunners.hold(runners, 8, false);

        CompletableFuture<Void> stage = node.stopping().toCompletableFuture();
        assertThat(runners.startsHeld()).isTrue();
        // nor is anything admitted or recovered (the batch subsystem's job operator stops with the deployments)
        assertThat(suspension.held()).isTrue();
        assertThat(suspension.whileAdmitting(() -> "admitted")).isEmpty();
        assertThat(stage).isNotDone();
        TestRunners.release(runners, 8);
        TestRunners.release(runners, 7);
        stage.get(5, TimeUnit.SECONDS);
        assertThat(stopped).isEmpty();
    }

    @Test
    void whatIsStillHeldAfterTheWaitIsStoppedRunningAndQueuedAlike() throws Exception {
        NodeSuspension node = node(Duration.ofMillis(200));
        TestRunners.hold(runners, 7, true);
        TestRunners.hold(runners, 8, false);
        node.prepare().toCompletableFuture().get(5, TimeUnit.SECONDS);
        node.suspend(true).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(stopped).containsExactlyInAnyOrder(7L, 8L);
        assertThat(runners.heldNow()).isEmpty();
        assertThat(runners.startsHeld()).isTrue();
    }

    @Test
    void aResumeDuringTheDrainStopsNothingAndAdmitsAtOnce() throws Exception {
        NodeSuspension node = node(Duration.ofSeconds(1));
        TestRunners.hold(runners, 7, true);
        node.prepare().toCompletableFuture().get(5, TimeUnit.SECONDS);
        CompletableFuture<Void> stage = node.suspend(false).toCompletableFuture();

        node.resume();
        assertThat(stage).isCancelled();
        assertThat(suspension.whileAdmitting(() -> "admitted")).contains("admitted");
        assertThat(runners.startsHeld()).isFalse();
        // the drain's wait runs out on the worker after the resume: it must not stop the job then
        worker.shutdown();
        assertThat(worker.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stopped).isEmpty();
        assertThat(runners.startsHeld()).isFalse();
        assertThat(runners.holds(7)).isTrue();
        assertThat(resumed.get()).isEqualTo(1);
    }

    @Test
    void prepareWaitsForTheAdmissionsInProgressAndNoneStartsAfterIt() throws Exception {
        NodeSuspension node = node(Duration.ZERO);
        int workers = 4;
        AtomicInteger admitted = new AtomicInteger();
        ExecutorService ticks = Executors.newFixedThreadPool(workers);
        try {
            for (int i = 0; i < workers; i++) {
                ticks.submit(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        suspension.whileAdmitting(() -> {
                            admitted.incrementAndGet();
                            sleepQuietly(2); // one admitting transaction
                            return admitted.incrementAndGet();
                        });
                    }
                });
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> admitted.get() > 50);
            node.prepare().toCompletableFuture().get(5, TimeUnit.SECONDS);
            // every admission that began has ended (each counts twice): none is half-way, none begins
            int after = admitted.get();
            assertThat(after % 2).isZero();
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> admitted.get() == after);
        } finally {
            ticks.shutdownNow();
            ticks.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
