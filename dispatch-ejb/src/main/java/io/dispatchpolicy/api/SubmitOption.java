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
 * dispatch.submit("invoice", props, SubmitOption.unique("invoice-" + orderId, Duration.ofHours(24)));
 * dispatch.submit("report", props, SubmitOption.expireAfter(Duration.ofMinutes(30)));
 * dispatch.submit("reindex", props, SubmitOption.debounce("tenant-42", Duration.ofSeconds(2), Duration.ofSeconds(5)));
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
    private final Unique unique;
    private final Expiry expiry;
    private final Debounced debounce;
    private Duration priorityOffset;
    private java.util.List<Continuation> continuations;

    private SubmitOption(Integer priority, Due due) {
        this(priority, due, null);
    }

    private SubmitOption(Integer priority, Due due, String lane) {
        this(priority, due, lane, null, null);
    }

    private SubmitOption(Integer priority, Due due, String lane, Duration timeout, Duration progressTimeout) {
        this(priority, due, lane, timeout, progressTimeout, null, null, null, null);
    }

    private SubmitOption(Integer priority, Due due, String lane, Duration timeout, Duration progressTimeout, Integer cost,
                         Unique unique, Expiry expiry, Debounced debounce) {
        this.cost = cost;
        this.priority = priority;
        this.due = due;
        this.lane = lane;
        this.timeout = timeout;
        this.progressTimeout = progressTimeout;
        this.unique = unique;
        this.expiry = expiry;
        this.debounce = debounce;
    }

    /** The longest key of a uniqueness or debounce key. */
    public static final int MAX_KEY_LENGTH = 512;

    /**
     * The job is unique by this key among its policy's jobs while the job holding the key is staged or running
     * (ADR 0036): a submission with a key already held stages nothing and returns the holder's submission id —
     * decided by the database, so concurrent callers on any node get one job. Instead of its policy's key.
     * In {@code submitAll} every job of the call has this key: one is staged. Empty or blank: rejected.
     */
    public static SubmitOption unique(String key) {
        return unique(key, io.dispatchpolicy.spi.Uniqueness.WHILE_LIVE);
    }

    /** Unique by this key while staged, running, or completed less than {@code window} ago. */
    public static SubmitOption unique(String key, Duration window) {
        try {
            return unique(key, io.dispatchpolicy.spi.Uniqueness.within(window));
        } catch (IllegalArgumentException e) {
            throw new SubmissionRejectedException("SubmitOption.unique: " + e.getMessage());
        }
    }

    /** Unique by this key in exactly the states {@code uniqueness} covers. */
    public static SubmitOption unique(String key, io.dispatchpolicy.spi.Uniqueness uniqueness) {
        if (uniqueness == null) {
            throw new SubmissionRejectedException("SubmitOption.unique: the uniqueness must not be null");
        }
        return new SubmitOption(null, null, null, null, null, null, new Unique(key("unique", key), uniqueness), null, null);
    }

    private static String key(String option, String key) {
        if (key == null || key.isBlank()) {
            throw new SubmissionRejectedException("SubmitOption." + option + ": the key must not be empty");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new SubmissionRejectedException("SubmitOption." + option + ": the key has " + key.length()
                    + " characters, more than " + MAX_KEY_LENGTH);
        }
        return key;
    }

    /**
     * The job must be admitted by this instant (the database's clock) or it expires: it never runs and is
     * kept as EXPIRED (ADR 0036). Instead of its policy's {@code expireAfter}. Already past: it expires at the
     * next tick unless admitted in it. More than {@link #HORIZON} away: rejected.
     */
    public static SubmitOption deadline(Instant deadline) {
        if (deadline == null) {
            throw new SubmissionRejectedException("SubmitOption.deadline: the deadline must not be null");
        }
        return new SubmitOption(null, null, null, null, null, null, null, new Expiry(deadline, null), null);
    }

    /**
     * The job must be admitted within this long of becoming due (of its staging, or of its delay's end) or it
     * expires. Zero, negative or more than {@link #HORIZON}: rejected.
     */
    public static SubmitOption expireAfter(Duration max) {
        return new SubmitOption(null, null, null, null, null, null, null, new Expiry(null, positive("expireAfter", max)), null);
    }

    /**
     * Debounce (ADR 0036): while a job of its policy with this key is staged and not yet due, this submission
     * replaces that job's parameters and pushes it to {@code period} from now — never past {@code maxWait}
     * after the first submission of the burst — and returns its submission id; otherwise it stages a job due
     * in {@code period}. Empty key, a period of 0 or less, a maxWait shorter than the period, either over a
     * day: rejected. Instead of its policy's debounce.
     */
    public static SubmitOption debounce(String key, Duration period, Duration maxWait) {
        String k = key("debounce", key);
        try {
            return new SubmitOption(null, null, null, null, null, null, null, null,
                    new Debounced(k, new io.dispatchpolicy.spi.Debounce(period, maxWait)));
        } catch (IllegalArgumentException e) {
            throw new SubmissionRejectedException("SubmitOption.debounce: " + e.getMessage());
        }
    }

    /** The uniqueness key the options set, if any (the last one given). */
    public static Optional<Unique> uniqueOf(SubmitOption... options) {
        return last(options, o -> o.unique);
    }

    /** The deadline the options set, if any (the last one given). */
    public static Optional<Expiry> expiryOf(SubmitOption... options) {
        return last(options, o -> o.expiry);
    }

    /** The debounce the options set, if any (the last one given). */
    public static Optional<Debounced> debounceOf(SubmitOption... options) {
        return last(options, o -> o.debounce);
    }

    /** A submission's uniqueness key and what it covers. */
    public record Unique(String key, io.dispatchpolicy.spi.Uniqueness uniqueness) {
    }

    /** A deadline: an instant, or a wait after the job is due; exactly one is set. */
    public record Expiry(Instant deadline, Duration after) {
    }

    /** A submission's debounce key and its period and longest wait. */
    public record Debounced(String key, io.dispatchpolicy.spi.Debounce debounce) {
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
        return new SubmitOption(null, null, null, null, null, threads, null, null, null);
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

    /**
     * Orders the job within its priority as if it had been submitted this much earlier (positive) or later
     * (negative): offset by 60 s it goes ahead of the jobs of its partition submitted up to 60 s before it, and
     * behind every older one (ADR 0046). Overrides its policy's offset function. The job's priority still
     * comes first; a retry keeps the place its submission had. More than {@link #HORIZON} either way: rejected.
     */
    public static SubmitOption priorityOffset(Duration offset) {
        if (offset == null) {
            throw new SubmissionRejectedException("SubmitOption.priorityOffset: the offset must not be null");
        }
        SubmitOption option = new SubmitOption(null, null);
        option.priorityOffset = checkedOffset("SubmitOption.priorityOffset", offset);
        return option;
    }

    /**
     * Jobs to submit when this one has ended for good, each when its end matches (ADR 0051): staged through their
     * own policies in the transaction that records the end, exactly once. Unlike other options, every
     * {@code then} given counts. In {@code submitAll} each staged job carries them; a job the call did not
     * stage (a duplicate of a unique key's holder, or debounced into a staged one) carries none.
     */
    public static SubmitOption then(Continuation... continuations) {
        if (continuations == null || continuations.length == 0 || java.util.Arrays.stream(continuations).anyMatch(java.util.Objects::isNull)) {
            throw new SubmissionRejectedException("SubmitOption.then: give at least one continuation, none of them null");
        }
        SubmitOption option = new SubmitOption(null, null);
        option.continuations = java.util.List.of(continuations);
        return option;
    }

    /** Every continuation the options carry, in the order given. */
    public static java.util.List<Continuation> continuationsOf(SubmitOption... options) {
        java.util.List<Continuation> all = new java.util.ArrayList<>();
        if (options != null) {
            for (SubmitOption option : options) {
                if (option != null && option.continuations != null) {
                    all.addAll(option.continuations);
                }
            }
        }
        return all;
    }

    /** The offset, refused beyond {@link #HORIZON} either way; {@code source} names who gave it. */
    public static Duration checkedOffset(String source, Duration offset) {
        if (offset.abs().compareTo(HORIZON) > 0) {
            throw new SubmissionRejectedException(source + ": an offset of at most " + HORIZON.toDays()
                    + " days either way, was " + offset);
        }
        return offset;
    }

    /** The priority offset the options set, if any (the last one given). */
    public static Optional<Duration> priorityOffsetOf(SubmitOption... options) {
        return last(options, o -> o.priorityOffset);
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
        return continuations != null ? "then(" + continuations + ")" : priorityOffset != null ? "priorityOffset(" + priorityOffset + ")"
                : priority != null ? "priority(" + priority + ")" : lane != null ? "lane(" + lane + ")"
                : unique != null ? "unique(" + unique.key() + ")" : expiry != null ? "expiry(" + expiry + ")"
                : debounce != null ? "debounce(" + debounce.key() + ", " + debounce.debounce() + ")"
                : timeout != null ? "timeout(" + timeout + ")" : cost != null ? "cost(" + cost + ")" : progressTimeout != null ? "progressTimeout(" + progressTimeout + ")"
                : due.delay() != null ? "delay(" + due.delay() + ")" : "at(" + due.at() + ")";
    }
}
