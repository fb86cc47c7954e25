package io.dispatchpolicy.application;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Wakes this node's idle tick when a submission commits here, so a job submitted to an idle system
 * is admitted in milliseconds rather than after the rest of {@code dispatch.idle-pause}. Other
 * nodes find the work on their next iteration, as before.
 */
@ApplicationScoped
public class TickSignal {

    private final Object lock = new Object();
    private boolean work;

    public void workArrived() {
        synchronized (lock) {
            work = true;
            lock.notifyAll();
        }
    }

    /**
     * Sleeps up to {@code nanos}, or until work arrives.
     *
     * @return false when interrupted
     */
    public boolean awaitWork(long nanos) {
        long deadline = System.nanoTime() + nanos;
        synchronized (lock) {
            try {
                while (!work) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    lock.wait(left / 1_000_000, (int) (left % 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                work = false;
            }
        }
        return true;
    }
}
