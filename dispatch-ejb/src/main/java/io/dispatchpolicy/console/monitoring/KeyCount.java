package io.dispatchpolicy.console.monitoring;

/** A name and a number: a partition and its pending jobs, a reason and its denials. */
public record KeyCount(String key, long count) implements java.io.Serializable {
}
