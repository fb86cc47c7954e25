package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.spi.Uniqueness;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A submission from outside the application (the write API): a job XML name, one parameter map per job, and
 * each {@code SubmitOption} as a plain value, null when not given. The engine turns it into the same
 * {@code DispatchOperator.submitEach} call an application makes, so every check and outcome is the same.
 *
 * @param uniqueCovers the states a uniqueness key covers; null: staged and running (and completed, with a window)
 * @param then         continuations each job carries (ADR 0051): each a request of one job, on which end; empty for none
 */
public record SubmitRequest(String jobName, List<Map<String, String>> parameters,
                            Integer priority, Duration delay, Instant at, String lane, Integer cost,
                            Duration timeout, Duration progressTimeout,
                            String uniqueKey, Duration uniqueWindow, Set<Uniqueness.State> uniqueCovers,
                            Instant deadline, Duration expireAfter,
                            String debounceKey, Duration debouncePeriod, Duration debounceMaxWait,
                            Duration priorityOffset, List<Then> then) implements Serializable {

    /** The most jobs one call may carry: a bigger batch belongs in several calls (each atomic on its own). */
    public static final int MAX_JOBS = 10_000;

    public SubmitRequest {
        parameters = parameters == null ? List.of() : List.copyOf(parameters);
        uniqueCovers = uniqueCovers == null ? null : Set.copyOf(uniqueCovers);
        then = then == null ? List.of() : List.copyOf(then);
    }

    /**
     * A continuation as the write API takes it: {@code on} is {@code success}, {@code failure} or {@code any}; {@code job}
     * is the continuation's own request (one parameter map, its options, its own continuations).
     */
    public record Then(String on, SubmitRequest job) implements Serializable {
    }
}
