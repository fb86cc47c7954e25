package io.dispatchpolicy.spi;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Gates checked where they are declared. */
class GateTest {

    @Test
    void aQuotaIsCheckedAtDeclaration() {
        assertThatThrownBy(() -> Gate.quota(-1, QuotaPeriod.DAY)).isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("quota max must be >= 0, was -1");
        assertThatThrownBy(() -> Gate.quota(10, QuotaPeriod.DAY).in("Mars/Olympus_Mons")).isInstanceOf(PolicyDeclarationException.class)
                .hasMessageStartingWith("quota zone 'Mars/Olympus_Mons' is no zone id (");
        assertThatThrownBy(() -> Gate.quota(10, QuotaPeriod.DAY).inZoneOf(" ")).isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("quota inZoneOf needs the name of a context value");
        assertThatThrownBy(() -> Gate.quota(10, null)).isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("quota needs a max and a period (QuotaPeriod.DAY, WEEK or MONTH)");

        Gate.Quota q = Gate.quota(0, QuotaPeriod.MONTH).in("Europe/Berlin").named("plan");
        assertThat(q.type()).isEqualTo("quota");
        assertThat(q.zone()).isEqualTo("Europe/Berlin");
        assertThat(q.zoneKey()).isNull();
        assertThat(q.name()).isEqualTo("plan");
        assertThat(Gate.quota(5, QuotaPeriod.WEEK).inZoneOf("zone").zone()).isNull();
        assertThat(Gate.quota(5, QuotaPeriod.WEEK).zone()).as("UTC unless told").isEqualTo("UTC");
    }

    @Test
    void aPolicyWithOnlyAQuotaCountsNoJobsInFlight() {
        Policy quotaOnly = Policy.named("q").governs("q").partitionBy(ctx -> "k").gate(Gate.quota(3, QuotaPeriod.DAY)).build();
        assertThat(quotaOnly.gates()).singleElement().satisfies(g -> assertThat(g.id()).isEqualTo("quota"));
        assertThat(quotaOnly.countsInFlight()).as("a quota counts admissions, not jobs running").isFalse();
    }
}
