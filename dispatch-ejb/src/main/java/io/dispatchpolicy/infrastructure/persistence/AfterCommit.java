package io.dispatchpolicy.infrastructure.persistence;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs something once the current JTA transaction has committed (at once without one; never on rollback).
 * A transaction gets one synchronization however many actions wait on it: an admission transaction of a
 * group of partitions queues a few per partition (counts, history, wake-ups).
 */
public final class AfterCommit {

    private static final Logger LOG = Logger.getLogger(AfterCommit.class.getName());

    /** The transaction-scoped resource holding a transaction's queued actions. */
    private static final Object QUEUED = new Object();

    private AfterCommit() {
    }

    public static void run(TransactionSynchronizationRegistry transactions, Runnable action) {
        int status = transactions.getTransactionStatus();
        if (status == Status.STATUS_MARKED_ROLLBACK) {
            return; // it can only roll back
        }
        if (status != Status.STATUS_ACTIVE) {
            action.run();
            return;
        }
        @SuppressWarnings("unchecked")
        List<Runnable> queued = (List<Runnable>) transactions.getResource(QUEUED);
        if (queued == null) {
            List<Runnable> actions = new ArrayList<>();
            transactions.putResource(QUEUED, actions);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    // only the outcome matters
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        actions.forEach(AfterCommit::runQuietly);
                    }
                }
            });
            queued = actions;
        }
        queued.add(action);
    }

    /** One action's failure does not keep the others of its transaction from running. */
    private static void runQuietly(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "An action after a commit failed", e);
        }
    }
}
