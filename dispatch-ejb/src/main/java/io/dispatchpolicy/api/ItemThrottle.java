package io.dispatchpolicy.api;

/**
 * The item-level throttle of a running chunk step (ADR 0034): draws items from its partition's bucket, which every
 * running job of the partition shares on every node, at the rate its policy declares
 * ({@code Policy.Builder.itemThrottle}). Most jobs need not call it: the engine's listener does, per item or per
 * {@code batch} items —
 *
 * <pre>{@code
 * <chunk item-count="10">
 *     <reader ref="ordersReader"/> <writer ref="ordersWriter"/>
 * </chunk>
 * <listeners><listener ref="dispatchItemThrottle"><properties><property name="batch" value="1"/></properties></listener></listeners>
 * }</pre>
 *
 * Waiting for tokens holds no database lock or connection of the engine's; a stop asked meanwhile ends the wait.
 */
public interface ItemThrottle {

    /**
     * Waits until {@code items} tokens can be drawn from the bucket of {@code executionId}'s partition, and draws them.
     *
     * @return true when drawn (or when the job's policy has no item throttle: nothing to wait for); false when the
     * execution was asked to stop while it waited
     * @throws IllegalArgumentException for less than 1 item, or more than the bucket holds
     * @throws IllegalStateException    when the execution is not a governed job in flight
     */
    boolean acquire(long executionId, int items);
}
