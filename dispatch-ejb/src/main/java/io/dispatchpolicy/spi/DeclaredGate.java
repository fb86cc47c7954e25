package io.dispatchpolicy.spi;

/**
 * A gate as a policy holds it: with the id that keys its state and its configuration overrides.
 *
 * @param id   the gate's name, or its type for the first gate of a type, {@code type-2} for the second…
 * @param gate the declaration
 */
public record DeclaredGate(String id, Gate gate) {
}
