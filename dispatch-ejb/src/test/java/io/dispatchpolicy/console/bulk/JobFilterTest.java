package io.dispatchpolicy.console.bulk;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A bulk action's filter is refused at the boundary when it would match everything or nothing sensible (ADR 0039). */
class JobFilterTest {

    @Test
    void aFilterNeedsACriterionAndAPartitionNeedsItsPolicy() {
        assertThatThrownBy(() -> new JobFilter(" ", "", null, null, null, "  ").validate()).isInstanceOf(BulkActionRefused.class)
                .hasMessageContaining("at least one criterion").extracting(e -> ((BulkActionRefused) e).field()).isEqualTo("policy");
        assertThatThrownBy(() -> new JobFilter(null, "acme", null, null, null, null).validate())
                .extracting(e -> ((BulkActionRefused) e).field()).isEqualTo("partition");
        assertThatThrownBy(() -> new JobFilter("p", null, null, Instant.parse("2026-01-02T00:00:00Z"), Instant.parse("2026-01-01T00:00:00Z"),
                null).validate()).extracting(e -> ((BulkActionRefused) e).field()).isEqualTo("to");
        assertThatThrownBy(() -> new JobFilter("p", null, null, null, null, "=x").validate())
                .extracting(e -> ((BulkActionRefused) e).field()).isEqualTo("parameter");
    }

    @Test
    void aParameterIsSplitAtItsFirstEqualsSignAndTheGivenCriteriaAreListedInOrder() {
        JobFilter f = new JobFilter(" reports ", "acme", "nightly", null, null, " url = a=b ").validate();
        assertThat(f.parameterName()).isEqualTo("url");
        assertThat(f.parameterValue()).isEqualTo("a=b");
        assertThat(f.given()).containsExactly(java.util.Map.entry("policy", "reports"), java.util.Map.entry("partition", "acme"),
                java.util.Map.entry("job", "nightly"), java.util.Map.entry("parameter", "url = a=b"));
        assertThat(BulkKind.parse(" Discard ")).isEqualTo(BulkKind.DISCARD);
        assertThatThrownBy(() -> BulkKind.parse("nuke")).hasMessageContaining("[DISCARD, EXPIRE, STOP, RESTART, RETRY]");
    }
}
