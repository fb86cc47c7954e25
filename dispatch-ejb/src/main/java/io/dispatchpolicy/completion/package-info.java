/**
 * The end of an admitted execution (ADR 0006): its start and end marks
 * ({@link io.dispatchpolicy.completion.DefaultInflightTracker}: the exactly-once latch, the freed slot, the
 * adaptive gates fed), and what becomes of one that FAILED — retried through its policy or kept dead for
 * an operator ({@link io.dispatchpolicy.completion.FailedJobs}) — in the transaction that frees its slot.
 */
package io.dispatchpolicy.completion;
