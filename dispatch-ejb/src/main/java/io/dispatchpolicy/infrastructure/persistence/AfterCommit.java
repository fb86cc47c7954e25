package io.dispatchpolicy.infrastructure.persistence;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** Runs something once the current JTA transaction has committed (at once without one; never on rollback). */
public final class AfterCommit {

    private AfterCommit() {
    }

    public static void run(TransactionSynchronizationRegistry transactions, Runnable action) {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            action.run();
            return;
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // only the outcome matters
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        });
    }
}
