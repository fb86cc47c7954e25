/**
 * The partition rows as every role locks them, and the one order in which any statement that locks
 * several takes their locks ({@link io.dispatchpolicy.partition.PartitionRepository#LOCK_ORDER}): staging,
 * the admission, a schedule's action and the tick's deny state all lock in it, so they never deadlock.
 */
package io.dispatchpolicy.partition;
