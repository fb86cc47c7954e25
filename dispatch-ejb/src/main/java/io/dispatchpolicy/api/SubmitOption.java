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
 * dispatch.submitAll("digest", manyProps, SubmitOption.delay(Duration.ofHours(2)), SubmitOption.priority(-1));
 * }</pre>
 */
public final class SubmitOption {

    /** The furthest into the future a job can be submitted for. */
    public static final Duration HORIZON = Duration.ofDays(3653);

    private final Integer priority;
    private final Due due;

    private SubmitOption(Integer priority, Due due) {
        this.priority = priority;
        this.due = due;
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
        OptionalInt found = OptionalInt.empty();
        if (options != null) {
            for (SubmitOption option : options) {
                if (option != null && option.priority != null) {
                    found = OptionalInt.of(option.priority);
                }
            }
        }
        return found;
    }

    /** When the options make the job due, if they say (the last delay or time given). */
    public static Optional<Due> dueOf(SubmitOption... options) {
        Due found = null;
        if (options != null) {
            for (SubmitOption option : options) {
                if (option != null && option.due != null) {
                    found = option.due;
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
        return priority != null ? "priority(" + priority + ")" : due.delay() != null ? "delay(" + due.delay() + ")"
                : "at(" + due.at() + ")";
    }
}
