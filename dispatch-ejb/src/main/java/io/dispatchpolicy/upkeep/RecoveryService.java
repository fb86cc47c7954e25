package io.dispatchpolicy.upkeep;

/**
 * Takes over the work of nodes that are gone (an earlier life of this node, a node that stopped, or
 * one whose heartbeat is older than {@code dispatch.inflight-stale-after}).
 */
public interface RecoveryService {

    /**
     * Starts admitted executions whose runner never started because their node died between the
     * admission commit and the hand-over to JBeret's thread pool.
     *
     * @return executions this node adopted and will start
     */
    int recoverUnstarted();

    /**
     * Releases the slots of jobs that were running on a dead node, marks their executions FAILED, and
     * restarts them as the policy's retry strategy says: restaged through the policy (default), or at
     * once. A Jakarta Batch restart resumes chunk steps from their last checkpoint.
     *
     * @return executions released
     */
    int releaseDeadNodesJobs();

    /**
     * Repairs this node's own in-flight rows whose runner is no longer held in this JVM (a database
     * outage cut it off from its bookkeeping): starts those that never started, releases those that
     * did and restarts the ones JBeret still has running. It never touches a row whose runner is
     * queued or running here.
     *
     * @return rows repaired
     */
    int reconcile();
}
