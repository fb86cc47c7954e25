package io.dispatchpolicy.admission;

import java.util.UUID;

/** The node an in-flight execution belongs to: its boot's identity and its name (for people). */
public record InflightOwner(UUID id, String name) {
}
