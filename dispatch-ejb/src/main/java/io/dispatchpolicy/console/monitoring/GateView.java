package io.dispatchpolicy.console.monitoring;

/**
 * One gate of a partition, with its live state.
 *
 * @param id          gate id
 * @param settings    its parameters as evaluated for this partition
 * @param state       tokens left, or current cap and smoothed lag; "-" before first use
 */
public record GateView(String id, String settings, String state) implements java.io.Serializable {
}
