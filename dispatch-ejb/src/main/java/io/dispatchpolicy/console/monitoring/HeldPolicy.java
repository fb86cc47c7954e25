package io.dispatchpolicy.console.monitoring;

/**
 * A policy held because a {@code dispatch.policy.*} value cannot be used.
 *
 * @param property the offending property
 * @param value    its value
 * @param message  what is wrong, in words
 */
public record HeldPolicy(String policy, String property, String value, String message) implements java.io.Serializable {
}
