package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * A tenant demoted now: its new submissions go to {@code lane} because of {@code rule}
 * ({@code threshold:seconds:lane}), having had {@code submissions} in that window; until {@code until}
 * if it submits nothing more (to the counting resolution: a second, or a minute for windows over a
 * minute).
 */
public record DemotionView(String tenant, String lane, String rule, int submissions, Instant until) implements java.io.Serializable {
}
