package io.dispatchpolicy.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NearestNameTest {

    private static final List<String> POLICIES = List.of("reports", "exports", "billing", "it-flow");

    @Test
    void aSwapADropAndASubstitutionFindTheDeclaredName() {
        assertThat(NearestName.to("reprots", POLICIES)).contains("reports");
        assertThat(NearestName.to("biling", POLICIES)).contains("billing");
        assertThat(NearestName.to("it-flaw", POLICIES)).contains("it-flow");
    }

    @Test
    void aNameFarFromEveryKnownOneHasNoSuggestion() {
        assertThat(NearestName.to("ghost", POLICIES)).isEmpty();
        assertThat(NearestName.to("x", List.of())).isEmpty();
    }

    @Test
    void aTieGoesToTheFirstInOrder() {
        // "xports" is one edit from both "exports" and... only exports; "eports" is one from reports and exports
        assertThat(NearestName.to("eports", POLICIES)).contains("exports");
        assertThat(NearestName.distance("reports", "reprots")).isEqualTo(1);
        assertThat(NearestName.distance("abc", "")).isEqualTo(3);
    }
}
