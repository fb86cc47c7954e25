package io.dispatchpolicy.running;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * A draw from an item bucket in a transaction of its own (ADR 0034): a chunk step draws inside its chunk's
 * transaction, and the bucket's row must not stay locked until that chunk commits — every job of the partition
 * would queue behind it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ItemBucketTransactions {

    @Inject
    ItemBucketRepository buckets;

    /** @see ItemBucketRepository#take */
    public double take(String policy, String key, double take, double ratePerSecond, double burst) {
        return buckets.take(policy, key, take, ratePerSecond, burst);
    }
}
