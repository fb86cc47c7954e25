package io.dispatchpolicy.it;

import io.dispatchpolicy.console.monitoring.GateView;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.monitoring.PartitionDetail;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A calendar quota on the deployed engine (issue 38): 10 jobs a day per tenant, the day starting at midnight in the
 * tenant's own zone; the 11th waits, with reason quota_exhausted, until that midnight, and the partition page says
 * how many are left and when the quota resets.
 */
class QuotaIT extends EngineTest {

    @Inject
    Monitoring monitoring;

    @Test
    void theEleventhJobOfADayWaitsUntilMidnightInTheTenantsZone() {
        String berlin = "q-berlin-" + UUID.randomUUID();
        String kiritimati = "q-kiritimati-" + UUID.randomUUID();
        stage("it-quota", berlin, 12, "zone", "Europe/Berlin");
        stage("it-quota", kiritimati, 11, "zone", "Pacific/Kiritimati");

        assertThat(ticks.iterate().admitted()).as("ten of each tenant").isEqualTo(20);
        assertThat(ticks.iterate().admitted()).as("none more today").isZero();
        assertThat(admitted("it-quota", berlin)).isEqualTo(10);
        assertThat(admitted("it-quota", kiritimati)).isEqualTo(10);

        for (String[] tenant : new String[][] {{berlin, "Europe/Berlin"}, {kiritimati, "Pacific/Kiritimati"}}) {
            ZoneId zone = ZoneId.of(tenant[1]);
            Instant midnight = LocalDate.now(zone).plusDays(1).atStartOfDay(zone).toInstant();
            assertThat(column("last_deny_reason", "it-quota", tenant[0])).isEqualTo("quota_exhausted");
            Instant eligible = Instant.parse(db.strings("SELECT to_char(next_eligible_at AT TIME ZONE 'UTC', "
                    + "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM dispatch.partitions WHERE policy_name = 'it-quota' AND partition_key = ?",
                    tenant[0]).get(0));
            assertThat(eligible).as("%s waits until midnight in %s", tenant[0], zone).isBetween(midnight, midnight.plusSeconds(1));

            PartitionDetail page = monitoring.partition(partitionId("it-quota", tenant[0])).orElseThrow();
            GateView quota = page.gates().get(0);
            assertThat(quota.settings()).isEqualTo("quota 10 a day from midnight in " + tenant[1]);
            assertThat(quota.state()).isEqualTo("0 of 10 left this day; resets "
                    + DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(midnight.atZone(zone)) + " (" + tenant[1] + ")");
            assertThat(page.waiting()).contains("quota_exhausted");
        }
    }

    @Test
    void aTenantWhoseZoneIsNoZoneWaitsWithTheReasonAndTheOthersGoOn() {
        String mars = "q-mars-" + UUID.randomUUID();
        String utc = "q-utc-" + UUID.randomUUID();
        stage("it-quota", mars, 2, "zone", "Mars/Olympus_Mons");
        stage("it-quota", utc, 2, "zone", "UTC");

        assertThat(ticks.iterate().admitted()).as("the tenant with a zone").isEqualTo(2);
        assertThat(admitted("it-quota", mars)).isZero();
        assertThat(column("last_deny_reason", "it-quota", mars)).isEqualTo("gate_parameter_invalid");
        assertThat(monitoring.partition(partitionId("it-quota", mars)).orElseThrow().gates().get(0).settings())
                .contains("'Mars/Olympus_Mons' is no zone id");
    }
}
