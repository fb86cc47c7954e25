package io.dispatchpolicy.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How one submission is staged, beyond its job XML and parameters: passed as trailing options, so a
 * call that needs none stays as it was ({@code dispatch.submit("report", props)}), and a new option
 * never changes a signature. When an option of one kind is given twice, the last one counts.
 *
 * <pre>{@code
 * dispatch.submit("password-reset", props, SubmitOption.priority(10));
 * dispatch.submit("reminder", props, SubmitOption.at(tomorrowAtNine));
 * dispatch.submit("report", props, SubmitOption.lane("critical"));
 * dispatch.submitAll("digest", manyProps, SubmitOption.delay(Duration.ofHours(2)), SubmitOption.priority(-1));
 * dispatch.submit("export", props, SubmitOption.timeout(Duration.ofMinutes(30)));
 * dispatch.submit("reindex", props, SubmitOption.cost(5));
 * }</pre>
 */
public final class SubmitOption {

    /** The furthest into the future a job can be submitted for. */
    public static final Duration HORIZON = Duration.ofDays(3653);

    /** The highest cost a job can be given: more batch threads than any server's pool has. */
    public static final int MAX_COST = io.dispatchpolicy.spi.Policy.MAX_COST;

    private final Integer priority;
    private final Due due;
    private final String lane;
    private final Duration timeout;
    private final Duration progressTimeout;
    private final Integer cost;

    private SubmitOption(Integer priority, Due due) {
        this(priority, due, null);
    }

    private SubmitOption(Integer priority, Due due, String lane) {
        this(priority, due, lane, null, null);
    }

    private SubmitOption(Integer priority, Due due, String lane, Duration timeout, Duration progressTimeout) {
        this(priority, due, lane, timeout, progressTimeout, null);
    }

    private SubmitOption(Integer priority, Due due, String lane, Duration timeout, Duration progressTimeout, Integer cost) {
        this.cost = cost;
        this.priority = priority;
        this.due = due;
        this.lane = lane;
        this.timeout = timeout;
        this.progressTimeout = progressTimeout;
    }

    /**
     * The job's execution runs at most this long from its start, measured on the database's clock,
     * instead of its policy's timeout: past it, the execution is stopped, recorded FAILED ("timed out
     * after …") and its slot freed at once; the policy's retries apply, each retry with the same timeout.
     * Zero, negative or more than {@link #HORIZON}: the submission is rejected.
     */
    public static SubmitOption timeout(Duration max) {
        return new SubmitOption(null, null, null, positive("timeout", max), null);
    }

    /**
     * A chunk step of the job goes at most this long without a checkpoint, instead of its policy's
     * progress timeout; stopped and recorded FAILED ("no checkpoint for …") past it. Batchlet steps are
     * not watched by it. Zero, negative or more than {@link #HORIZON}: rejected.
     */
    public static SubmitOption progressTimeout(Duration max) {
        return new SubmitOption(null, null, null, null, positive("progressTimeout", max));
    }

    private static Duration positive(String option, Duration max) {
        if (max == null || max.isZero() || max.isNegative() || max.compareTo(HORIZON) > 0) {
            throw new SubmissionRejectedException("SubmitOption." + option + ": must be more than 0 and at most "
                    + HORIZON.toDays() + " days, was " + max);
        }
        return max;
    }

    /**
     * What the job costs: the batch threads it takes at its widest, and so the slots it takes of its
     * policy's concurrency gates, capacity and lanes, the tokens of its throttles, and the threads of the
     * node that runs it (ADR 0035). Instead of its policy's cost for its job name, or what its job XML
     * says (1 + the partitions of its widest partitioned step). Below 1 or above {@link #MAX_COST}: the
     * submission is rejected; more than a gate of its policy ever allows: rejected too.
     */
    public static SubmitOption cost(int threads) {
        if (threads < 1 || threads > MAX_COST) {
            throw new SubmissionRejectedException("SubmitOption.cost: must be at least 1 and at most " + MAX_COST + ", was " + threads);
        }
        return new SubmitOption(null, null, null, null, null, threads);
    }

    /** The cost the options set, if any (the last one given). */
    public static OptionalInt costOf(SubmitOption... options) {
        return last(options, o -> o.cost).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /** The run timeout the options set, if any (the last one given). */
    public static Optional<Duration> timeoutOf(SubmitOption... options) {
        return last(options, o -> o.timeout);
    }

    /** The progress timeout the options set, if any (the last one given). */
    public static Optional<Duration> progressTimeoutOf(SubmitOption... options) {
        return last(options, o -> o.progressTimeout);
    }

    /**
     * The lane of the policy the job goes to, instead of the policy's default lane. A name the policy
     * does not declare (or any name, for a policy without lanes) is rejected at submission.
     */
    public static SubmitOption lane(String lane) {
        if (lane == null || lane.isBlank()) {
            throw new SubmissionRejectedException("SubmitOption.lane: the lane must be named");
        }
        return new SubmitOption(null, null, lane.strip());
    }

    /**
     * The job's priority, overriding the policy's priority function: higher goes first within its
     * partition, and a partition's highest waiting priority orders the claim; negative values go last.
     * Equal priorities stay in submission order.
     */
    public static SubmitOption priority(int priority) {
        return new SubmitOption(priority, null);
    }

    /**
     * Not admitted before this long after staging, measured on the database's clock. Zero or negative:
     * due at once. More than {@link #HORIZON}: the submission is rejected.
     */
    public static SubmitOption delay(Duration delay) {
        if (delay == null) {
            throw new SubmissionRejectedException("SubmitOption.delay: the delay must not be null");
        }
        return new SubmitOption(null, new Due(delay, null));
    }

    /**
     * Not admitted before this instant (compared with the database's clock, so servers with skewed
     * clocks agree). In the past: due at once. More than {@link #HORIZON} away: rejected.
     */
    public static SubmitOption at(Instant at) {
        if (at == null) {
            throw new SubmissionRejectedException("SubmitOption.at: the time must not be null");
        }
        return new SubmitOption(null, new Due(null, at));
    }

    /** The priority the options set, if any (the last one given). */
    public static OptionalInt priorityOf(SubmitOption... options) {
        return last(options, o -> o.priority).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /** When the options make the job due, if they say (the last delay or time given). */
    public static Optional<Due> dueOf(SubmitOption... options) {
        return last(options, o -> o.due);
    }

    /** The lane the options name, if any (the last one given). */
    public static Optional<String> laneOf(SubmitOption... options) {
        return last(options, o -> o.lane);
    }

    /** What the last option that sets a value says of it. */
    private static <T> Optional<T> last(SubmitOption[] options, java.util.function.Function<SubmitOption, T> value) {
        T found = null;
        if (options != null) {
            for (SubmitOption option : options) {
                if (option != null && value.apply(option) != null) {
                    found = value.apply(option);
                }
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * A due time, relative to staging on the database's clock ({@code delay}) or absolute ({@code at});
     * exactly one is set.
     */
    public record Due(Duration delay, Instant at) {
    }

    @Override
    public String toString() {
        return priority != null ? "priority(" + priority + ")" : lane != null ? "lane(" + lane + ")"
                : timeout != null ? "timeout(" + timeout + ")" : cost != null ? "cost(" + cost + ")" : progressTimeout != null ? "progressTimeout(" + progressTimeout + ")"
                : due.delay() != null ? "delay(" + due.delay() + ")" : "at(" + due.at() + ")";
    }
}
