package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/** A running job's pause of its partition (ADR 0033): until when, why, and which execution said so. */
public record JobPause(Instant until, String reason, long execution) {
}
