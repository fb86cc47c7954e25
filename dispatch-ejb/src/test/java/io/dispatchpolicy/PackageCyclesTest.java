package io.dispatchpolicy;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class PackageCyclesTest {

    @Test
    void componentsOfTwoOrMoreAreTheCyclesAndAChainIsNone() {
        Map<String, Set<String>> graph = Map.of(
                "a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"),
                "d", Set.of("e"), "e", Set.of(),
                "x", Set.of("y"), "y", Set.of("x"));
        assertThat(PackageCycles.stronglyConnected(graph)).filteredOn(c -> c.size() > 1)
                .containsExactlyInAnyOrder(Set.of("a", "b", "c"), Set.of("x", "y"));
    }
}
