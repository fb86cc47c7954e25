package io.dispatchpolicy.console.bulk;

import java.io.Serializable;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which jobs a bulk action acts on: each given criterion must hold, and at least one is given (an action on
 * every job of every policy is a drain's business). The time range is the time each list shows: staged for
 * staged jobs, admitted for running ones, ended for failed ones, died for dead ones.
 *
 * @param policy       the jobs' policy
 * @param partitionKey their partition's key (with a policy)
 * @param jobName      their job XML name
 * @param from         on or after this instant
 * @param to           before this instant
 * @param parameter    a job parameter as {@code name=value}
 */
public record JobFilter(String policy, String partitionKey, String jobName, Instant from, Instant to, String parameter)
        implements Serializable {

    public JobFilter {
        policy = blankToNull(policy);
        partitionKey = partitionKey == null || partitionKey.isEmpty() ? null : partitionKey;
        jobName = blankToNull(jobName);
        parameter = blankToNull(parameter);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    /**
     * Refuses a filter that matches everything or cannot match: the message names the criterion.
     *
     * @throws BulkActionRefused naming the field
     */
    public JobFilter validate() {
        if (policy == null && partitionKey == null && jobName == null && from == null && to == null && parameter == null) {
            throw new BulkActionRefused("policy", "Give at least one criterion (policy, partition, job, time range, parameter): "
                    + "a bulk action on every job is refused (drain a policy to empty it)");
        }
        if (partitionKey != null && policy == null) {
            throw new BulkActionRefused("partition", "A partition key is a policy's: give the policy too");
        }
        if (from != null && to != null && !from.isBefore(to)) {
            throw new BulkActionRefused("to", "The time range is empty: from " + from + " is not before to " + to);
        }
        if (parameter != null && (parameter.indexOf('=') < 1)) {
            throw new BulkActionRefused("parameter", "A parameter is name=value, was '" + parameter + "'");
        }
        return this;
    }

    /** With a parameter: its name. */
    public String parameterName() {
        return parameter == null ? null : parameter.substring(0, parameter.indexOf('=')).strip();
    }

    /** With a parameter: its value. */
    public String parameterValue() {
        return parameter == null ? null : parameter.substring(parameter.indexOf('=') + 1).strip();
    }

    /** The criteria given, as the audit log and the bulk action's row show them. */
    public Map<String, String> given() {
        Map<String, String> given = new LinkedHashMap<>();
        put(given, "policy", policy);
        put(given, "partition", partitionKey);
        put(given, "job", jobName);
        put(given, "from", from == null ? null : from.toString());
        put(given, "to", to == null ? null : to.toString());
        put(given, "parameter", parameter);
        return given;
    }

    private static void put(Map<String, String> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    @Override
    public String toString() {
        return given().toString();
    }
}
