package io.dispatchpolicy.console.monitoring;

/**
 * A partition among a policy's top ones, with the id its page is reached by.
 *
 * @param count its pending jobs, or its admissions, as the list ranks them
 */
public record TopPartition(long id, String key, long count) implements java.io.Serializable {
}
