package io.dispatchpolicy.application.monitoring;

import java.time.Instant;

/**
 * A tenant demoted now: its new submissions go to {@code lane} because of {@code rule}
 * ({@code threshold:seconds:lane}), having had {@code submissions} in that window; at the latest until
 * {@code until}.
 */
public record DemotionView(String tenant, String lane, String rule, int submissions, Instant until) {
}
