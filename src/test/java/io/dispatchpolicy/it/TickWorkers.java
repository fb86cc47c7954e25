package io.dispatchpolicy.it;

import io.dispatchpolicy.tick.TickRunner;
import jakarta.enterprise.concurrent.ManagedExecutorService;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/** Two tick workers iterating at once (besides whatever else ticks), with a sampler beside them. */
final class TickWorkers {

    private TickWorkers() {
    }

    /**
     * Runs two workers calling {@code ticks.iterate()} until {@code done} holds or {@code atMost} has
     * passed, and {@code sample} in a loop of its own meanwhile.
     *
     * @return the jobs the two workers admitted
     */
    static int run(ManagedExecutorService executor, TickRunner ticks, BooleanSupplier done, Duration atMost, Runnable sample)
            throws Exception {
        long deadline = System.nanoTime() + atMost.toNanos();
        AtomicBoolean over = new AtomicBoolean();
        Future<?> sampling = executor.submit(() -> {
            while (!over.get() && System.nanoTime() < deadline) {
                sample.run();
            }
        });
        Callable<Integer> worker = () -> {
            int admitted = 0;
            while (!done.getAsBoolean() && System.nanoTime() < deadline) {
                admitted += ticks.iterate().admitted();
            }
            return admitted;
        };
        List<Future<Integer>> workers = executor.invokeAll(List.of(worker, worker));
        over.set(true);
        sampling.get();
        return workers.get(0).get() + workers.get(1).get();
    }
}
