package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.Map;

/**
 * How much earlier (positive) or later (negative) than its submission a job is ordered within its priority,
 * from its context (ADR 0046): a plan's jobs offset by a minute go ahead of everything its partition received
 * in the last minute, and behind everything older, so no job waits behind newer work for longer than the
 * largest offset. A caller's {@code SubmitOption.priorityOffset} overrides it; null means none.
 */
@FunctionalInterface
public interface PriorityOffsetFunction {
    Duration apply(Map<String, Object> context);
}
