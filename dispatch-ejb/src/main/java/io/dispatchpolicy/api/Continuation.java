package io.dispatchpolicy.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * A job to submit when another one has ended for good (ADR 0051): carried by a submission with
 * {@link SubmitOption#then(Continuation...)}, staged through its own policy in the transaction that records
 * its predecessor's last end — after the predecessor's retries, exactly once even when the node that ran it
 * dies — and only when that end matches {@link When}.
 *
 * <pre>{@code
 * dispatch.submit("import", props, SubmitOption.then(
 *         Continuation.onSuccess("reindex", reindexProps).then(Continuation.onAnyEnd("notify", mailProps)),
 *         Continuation.onFailure("cleanup", cleanupProps, SubmitOption.priority(5))));
 * }</pre>
 *
 * <p>A continuation's job gets its own parameters plus its predecessor's outcome: {@value #PREVIOUS_SUBMISSION},
 * {@value #PREVIOUS_EXECUTION}, {@value #PREVIOUS_JOB}, {@value #PREVIOUS_BATCH_STATUS} and
 * {@value #PREVIOUS_EXIT_STATUS}. Its options are a submission's ({@code SubmitOption.delay} counts from the
 * predecessor's end). A continuation is a value: it is built and then carried, so a chain has an end and
 * continuations cannot form a cycle. Immutable; {@link #then} returns a new one.
 */
public final class Continuation {

    /** The predecessor's ends a continuation follows. */
    public enum When {
        /** its last execution COMPLETED */
        SUCCESS,
        /** its last execution FAILED and will not be retried: dead, timed out for good, or of a policy without retries */
        FAILURE,
        /** either, or STOPPED by an operator */
        ANY_END
    }

    /** The job parameter naming the predecessor's submission id. */
    public static final String PREVIOUS_SUBMISSION = "dispatch.previous.submissionId";
    /** The job parameter naming the predecessor's last execution id. */
    public static final String PREVIOUS_EXECUTION = "dispatch.previous.executionId";
    /** The job parameter naming the predecessor's job. */
    public static final String PREVIOUS_JOB = "dispatch.previous.jobName";
    /** The job parameter holding the predecessor's batch status: COMPLETED, FAILED or STOPPED. */
    public static final String PREVIOUS_BATCH_STATUS = "dispatch.previous.batchStatus";
    /** The job parameter holding the predecessor's exit status (absent when it has none). */
    public static final String PREVIOUS_EXIT_STATUS = "dispatch.previous.exitStatus";

    /** The longest chain one submission can carry: continuations of continuations, this many deep. */
    public static final int MAX_DEPTH = 32;

    private final When when;
    private final String jobXmlName;
    private final Properties parameters;
    private final List<SubmitOption> options;
    private final List<Continuation> next;

    private Continuation(When when, String jobXmlName, Properties parameters, List<SubmitOption> options, List<Continuation> next) {
        if (jobXmlName == null || jobXmlName.isBlank()) {
            throw new SubmissionRejectedException("Continuation: the job XML name must be given");
        }
        this.when = when;
        this.jobXmlName = jobXmlName.strip();
        this.parameters = new Properties();
        if (parameters != null) {
            this.parameters.putAll(parameters);
        }
        this.options = List.copyOf(options);
        this.next = List.copyOf(next);
    }

    private static Continuation of(When when, String jobXmlName, Properties parameters, SubmitOption... options) {
        List<SubmitOption> given = options == null ? List.of() : Arrays.stream(options).filter(Objects::nonNull).toList();
        if (given.stream().anyMatch(o -> !SubmitOption.continuationsOf(o).isEmpty())) {
            throw new SubmissionRejectedException("Continuation of '" + jobXmlName + "': its own continuations are given with "
                    + "Continuation.then, not SubmitOption.then");
        }
        return new Continuation(when, jobXmlName, parameters, given, List.of());
    }

    /** Runs when the predecessor's last execution COMPLETED. */
    public static Continuation onSuccess(String jobXmlName, Properties parameters, SubmitOption... options) {
        return of(When.SUCCESS, jobXmlName, parameters, options);
    }

    /** Runs when the predecessor FAILED for good (after its policy's retries). */
    public static Continuation onFailure(String jobXmlName, Properties parameters, SubmitOption... options) {
        return of(When.FAILURE, jobXmlName, parameters, options);
    }

    /** Runs after the predecessor's last end, whatever it was (COMPLETED, FAILED for good, STOPPED by an operator). */
    public static Continuation onAnyEnd(String jobXmlName, Properties parameters, SubmitOption... options) {
        return of(When.ANY_END, jobXmlName, parameters, options);
    }

    /** A copy of this continuation that is itself followed by {@code continuations} (a chain). */
    public Continuation then(Continuation... continuations) {
        List<Continuation> all = new ArrayList<>(next);
        for (Continuation c : continuations == null ? new Continuation[0] : continuations) {
            all.add(Objects.requireNonNull(c, "continuation"));
        }
        Continuation copy = new Continuation(when, jobXmlName, parameters, options, all);
        if (copy.depth() > MAX_DEPTH) {
            throw new SubmissionRejectedException("Continuation of '" + jobXmlName + "': a chain of at most " + MAX_DEPTH
                    + " continuations, was " + copy.depth());
        }
        return copy;
    }

    public When when() {
        return when;
    }

    public String jobXmlName() {
        return jobXmlName;
    }

    /** A copy of its own parameters. */
    public Properties parameters() {
        Properties copy = new Properties();
        copy.putAll(parameters);
        return copy;
    }

    public List<SubmitOption> options() {
        return options;
    }

    /** What follows this one when it ends. */
    public List<Continuation> next() {
        return next;
    }

    /** How many continuations deep the chain from here goes (1: none follows it). */
    public int depth() {
        return 1 + next.stream().mapToInt(Continuation::depth).max().orElse(0);
    }

    @Override
    public String toString() {
        return "Continuation[" + when + " " + jobXmlName + (next.isEmpty() ? "" : " then " + next) + "]";
    }
}
