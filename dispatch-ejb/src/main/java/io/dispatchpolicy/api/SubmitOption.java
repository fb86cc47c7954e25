package io.dispatchpolicy.api;

import java.util.OptionalInt;

/**
 * How one submission is staged, beyond its job XML and parameters: passed as trailing options, so a
 * call that needs none stays as it was ({@code dispatch.submit("report", props)}), and a new option
 * never changes a signature. When an option is given twice, the last one counts.
 *
 * <pre>{@code
 * dispatch.submit("password-reset", props, SubmitOption.priority(10));
 * }</pre>
 */
public final class SubmitOption {

    private final Integer priority;

    private SubmitOption(Integer priority) {
        this.priority = priority;
    }

    /**
     * The job's priority, overriding the policy's priority function: higher goes first within its
     * partition, and a partition's highest waiting priority orders the claim; negative values go last.
     * Equal priorities stay in submission order.
     */
    public static SubmitOption priority(int priority) {
        return new SubmitOption(priority);
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

    @Override
    public String toString() {
        return "priority(" + priority + ")";
    }
}
