package io.dispatchpolicy.spi;

import java.util.Map;

/**
 * A job's priority from its context (the policy's context function's result): higher goes first.
 * A caller's {@code SubmitOption.priority} overrides it for one submission.
 */
@FunctionalInterface
public interface PriorityFunction {
    int apply(Map<String, Object> context);
}
