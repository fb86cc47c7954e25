package io.dispatchpolicy.admission;

import java.util.Map;
import java.util.Set;

/**
 * What the tick reads of every policy each iteration, in one statement: which are paused, and operators' lane
 * overrides (the {@code lane_overrides} column as stored, by policy; ADR 0025).
 */
public record PolicyStates(Set<String> paused, Map<String, String> laneOverridesJson) {
}
