package io.dispatchpolicy.admission;

/** An in-flight row of this node, locked for its repair, and whether its runner had marked it started. */
public record OwnedInflight(long executionId, boolean started) {
}
