/**
 * Work that follows work (ADR 0051): what is decided when a submission has ended for good — after its
 * policy's retries, in the transaction that records that end, so a crash leaves both or neither.
 * {@link io.dispatchpolicy.follow.JobEnds} is the one hook every final end goes through (a runner's end, a
 * job declared dead, a gone node's job settled by recovery, an operator's stop); its followers are rows of
 * {@code dispatch.followers} ({@link io.dispatchpolicy.follow.FollowerRepository}). A continuation
 * ({@link io.dispatchpolicy.follow.Continuations}) is staged through its own policy when the end matches.
 */
package io.dispatchpolicy.follow;
