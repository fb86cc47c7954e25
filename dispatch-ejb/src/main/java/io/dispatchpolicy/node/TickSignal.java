package io.dispatchpolicy.node;

import io.dispatchpolicy.infrastructure.persistence.AfterCommit;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Wakes this node's idle tick when a submission commits here, or when a job ending here frees a slot
 * of a partition, or of a policy at its capacity, that was waiting for one, so the work is admitted in milliseconds rather than after
 * the rest of {@code dispatch.idle-pause} (or the partition's {@code full-backoff}). Other nodes find
 * the work on their next iteration, as before.
 */
@ApplicationScoped
public class TickSignal {

    private final Object lock = new Object();
    private boolean work;
    private final java.util.Set<String> awaitingSlot = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Resource
    TransactionSynchronizationRegistry transactions;

    /** Wakes the tick when the current transaction commits (at once without one). */
    public void workArrivesOnCommit() {
        AfterCommit.run(transactions, this::workArrived);
    }

    /** The tick found {@code policy} at its capacity: a slot of it freeing on this node wakes the tick. */
    public void awaitSlot(String policy) {
        awaitingSlot.add(policy);
    }

    /** A job of {@code policy} ends in the current transaction: wakes the tick on commit if it waits for a slot. */
    public void slotFreesOnCommit(String policy) {
        if (policy != null && awaitingSlot.remove(policy)) {
            workArrivesOnCommit();
        }
    }

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
