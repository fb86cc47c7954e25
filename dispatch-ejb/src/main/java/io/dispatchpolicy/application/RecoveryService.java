package io.dispatchpolicy.application;

/**
 * Starts admitted executions whose runner never started because their node died between the admission
 * commit and the hand-over to JBeret's thread pool.
 */
public interface RecoveryService {

    /** @return executions this node adopted and will start */
    int recoverUnstarted();
}
