package io.dispatchpolicy.running;

/**
 * One of this node's executions with a timeout or a stop to deliver, as the watchdog's pass found it (times on the database's clock).
 *
 * @param executionId       the execution
 * @param timedOut          its timeout fired already (it was asked to stop)
 * @param sinceTimedOutMs   how long ago it fired; 0 when it did not
 * @param overran           it has run longer than its run timeout
 * @param stalled           its JBeret rows have not changed for longer than its progress timeout
 * @param runTimeoutMs      its run timeout, or null
 * @param progressTimeoutMs its progress timeout, or null
 * @param stopPending       an operator asked for its stop (on any node) and this node has not handed it to JBeret yet
 */
public record Watched(long executionId, boolean timedOut, long sinceTimedOutMs, boolean overran, boolean stalled,
                      Long runTimeoutMs, Long progressTimeoutMs, boolean stopPending) {
}
