package io.dispatchpolicy.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * Jobs submitted together as one group (ADR 0052), of one job XML or of several, each staged through its own
 * policy, all or nothing; {@link DispatchOperator#submitGroup} returns the group's id. Each member counts once when
 * it has ended for good (after its retries): completed, failed, stopped by an operator, or discarded before it ran.
 * When the last member has ended, the callbacks are staged once, each through its own job's policy:
 * {@link #onAllSucceeded} when every member completed, {@link #onAllEnded} in any case. A cancelled group discards
 * its staged members and runs no callback.
 *
 * <pre>{@code
 * long group = dispatch.submitGroup(JobGroup.named("nightly-import")
 *         .add("import", tenantParameters)                      // many jobs of one XML
 *         .add("prices", pricesParameters, SubmitOption.priority(5))
 *         .onAllSucceeded("send-summary", summaryParameters)
 *         .onAllEnded("release-lock", lockParameters));
 * GroupStatus progress = dispatch.groupStatus(group);
 * }</pre>
 *
 * <p>A callback's job gets its own parameters plus the group's: {@value #GROUP_ID}, {@value #GROUP_NAME} and the
 * counts {@value #GROUP_COMPLETED}, {@value #GROUP_FAILED}, {@value #GROUP_STOPPED}, {@value #GROUP_DISCARDED}. A
 * builder: not thread-safe; the group is read when it is submitted.
 */
public final class JobGroup {

    /** The job parameter naming a callback's group id. */
    public static final String GROUP_ID = "dispatch.group.id";
    /** The job parameter holding a callback's group name. */
    public static final String GROUP_NAME = "dispatch.group.name";
    /** How many of the group's members completed. */
    public static final String GROUP_COMPLETED = "dispatch.group.completed";
    /** How many failed for good. */
    public static final String GROUP_FAILED = "dispatch.group.failed";
    /** How many were stopped by an operator. */
    public static final String GROUP_STOPPED = "dispatch.group.stopped";
    /** How many were discarded before they ran. */
    public static final String GROUP_DISCARDED = "dispatch.group.discarded";

    /** The most members a group may have: ten calls of {@code submitAll}'s worth are still one transaction. */
    public static final int MAX_MEMBERS = 100_000;

    /** Jobs of one XML with the same options. */
    public record Members(String jobXmlName, List<Properties> parameters, List<SubmitOption> options) {
        public Members {
            parameters = List.copyOf(parameters);
            options = List.copyOf(options);
        }
    }

    private final String name;
    private final List<Members> members = new ArrayList<>();
    private final List<Continuation> callbacks = new ArrayList<>();

    private JobGroup(String name) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw new SubmissionRejectedException("JobGroup: a group is named, 1 to 200 characters");
        }
        this.name = name.strip();
    }

    /** A group with this name (shown in the console; not unique: the id is). */
    public static JobGroup named(String name) {
        return new JobGroup(name);
    }

    /** A group of {@code parameters.size()} jobs of one job XML: what {@code submitAll} submits, as a group. */
    public static JobGroup of(String name, String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        return named(name).add(jobXmlName, parameters, options);
    }

    /** Adds jobs of one job XML, each with its parameters, all with these options (continuations included). */
    public JobGroup add(String jobXmlName, List<Properties> parameters, SubmitOption... options) {
        if (jobXmlName == null || jobXmlName.isBlank()) {
            throw new SubmissionRejectedException("JobGroup '" + name + "': a member's job XML name must be given");
        }
        if (parameters == null || parameters.isEmpty() || parameters.stream().anyMatch(Objects::isNull)) {
            throw new SubmissionRejectedException("JobGroup '" + name + "': give the parameters of each job of '" + jobXmlName
                    + "' (an empty Properties for none)");
        }
        members.add(new Members(jobXmlName.strip(), parameters, options == null ? List.of()
                : Arrays.stream(options).filter(Objects::nonNull).toList()));
        return this;
    }

    /** Adds one job. */
    public JobGroup add(String jobXmlName, Properties parameters, SubmitOption... options) {
        return add(jobXmlName, java.util.Collections.singletonList(parameters == null ? new Properties() : parameters), options);
    }

    /** A job staged once when every member has ended and all of them completed. */
    public JobGroup onAllSucceeded(String jobXmlName, Properties parameters, SubmitOption... options) {
        callbacks.add(Continuation.onSuccess(jobXmlName, parameters, options));
        return this;
    }

    /** A job staged once when every member has ended, however they ended. */
    public JobGroup onAllEnded(String jobXmlName, Properties parameters, SubmitOption... options) {
        callbacks.add(Continuation.onAnyEnd(jobXmlName, parameters, options));
        return this;
    }

    public String name() {
        return name;
    }

    public List<Members> members() {
        return List.copyOf(members);
    }

    /** The callbacks: {@link Continuation.When#SUCCESS} for all succeeded, {@link Continuation.When#ANY_END} for all ended. */
    public List<Continuation> callbacks() {
        return List.copyOf(callbacks);
    }

    /** How many jobs the group submits. */
    public int size() {
        return members.stream().mapToInt(m -> m.parameters().size()).sum();
    }
}
