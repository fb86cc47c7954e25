package io.dispatchpolicy.console.jobs;

import java.io.Serializable;
import java.util.List;

/**
 * A search of the Jobs view: one key, newest submission first, a page of at most {@code limit} jobs
 * older than {@code before} (keyset paging: fast on any page of millions).
 *
 * @param by     what {@code value} is
 * @param value  the submission or execution id, the job name, the partition key, {@code name=value}, or a uniqueness or
 *               debounce key (ADR 0036)
 * @param policy with {@link By#PARTITION} and {@link By#KEY}: the partition's or the key's policy
 * @param before only submissions below this id; {@link Long#MAX_VALUE} for the newest
 */
public record JobQuery(By by, String value, String policy, long before, int limit) implements Serializable {

    public static final int MAX_LIMIT = 500;

    /** The keys a job is found by; {@code STATE} lists the jobs in one of {@link #STATES}, newest first. */
    public enum By { SUBMISSION, EXECUTION, JOB, PARTITION, PARAMETER, KEY, STATE, GROUP }

    /**
     * The lists by state the Jobs view opens on: staged (waiting, scheduled, retrying, parked), running (in flight),
     * failed (an execution that FAILED in the last hour, neither retrying nor dead: those are staged or dead), dead.
     */
    public static final List<String> STATES = List.of("staged", "running", "failed", "dead");

    public JobQuery {
        if (by == null) {
            throw new JobRequestRefused("Say what to find jobs by: one of submission, execution, job, partition, parameter, key, group");
        }
        value = value == null ? "" : value.strip();
        if (value.isEmpty()) {
            throw new JobRequestRefused("Give a " + by.name().toLowerCase() + " to find jobs by");
        }
        if ((by == By.SUBMISSION || by == By.EXECUTION || by == By.GROUP) && !isId(value)) {
            throw new JobRequestRefused("A " + by.name().toLowerCase() + " id is a whole number; '" + value + "' is not");
        }
        if (by == By.STATE && !STATES.contains(value.toLowerCase(java.util.Locale.ROOT))) {
            throw new JobRequestRefused("Jobs are listed by state " + STATES + "; not '" + value + "'");
        }
        if (by == By.STATE) {
            value = value.toLowerCase(java.util.Locale.ROOT);
        }
        if (by == By.PARAMETER && value.indexOf('=') <= 0) {
            throw new JobRequestRefused("Find by parameter as name=value (e.g. tenant=acme); '" + value + "' has no name");
        }
        if (by == By.PARTITION && (policy == null || policy.isBlank())) {
            throw new JobRequestRefused("A partition is found within its policy: name the policy");
        }
        if (by == By.KEY && (policy == null || policy.isBlank())) {
            throw new JobRequestRefused("A key is found within its policy: name the policy");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new JobRequestRefused("A page holds 1 to " + MAX_LIMIT + " jobs, not " + limit);
        }
        if (before <= 0) {
            before = Long.MAX_VALUE;
        }
    }

    private static boolean isId(String value) {
        try {
            return value.matches("\\d{1,19}") && Long.parseLong(value) >= 0;
        } catch (NumberFormatException tooLarge) {
            return false;
        }
    }

    /** Parses a key's name as the API and the console take it ({@code submission}, {@code execution}…). */
    public static By by(String name) {
        for (By by : By.values()) {
            if (by.name().equalsIgnoreCase(name == null ? "" : name.strip())) {
                return by;
            }
        }
        throw new JobRequestRefused("Jobs are found by submission, execution, job, partition, parameter, key, group or state; not by '"
                + name + "'");
    }

    public long id() {
        return Long.parseLong(value);
    }

    /** With {@link By#PARAMETER}: the parameter's name. */
    public String parameterName() {
        return value.substring(0, value.indexOf('=')).strip();
    }

    /** With {@link By#PARAMETER}: the parameter's value. */
    public String parameterValue() {
        return value.substring(value.indexOf('=') + 1).strip();
    }
}
