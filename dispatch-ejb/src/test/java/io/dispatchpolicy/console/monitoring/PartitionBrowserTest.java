package io.dispatchpolicy.console.monitoring;

import io.dispatchpolicy.domain.model.Partition;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partitions browser shows a key once, its lanes as columns: a policy with lanes keeps a row per lane
 * beside the key's own (gate) row, and the console must not show 11 partitions for 5 tenants.
 */
class PartitionBrowserTest {

    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final PartitionBrowser browser = new PartitionBrowser();
    private final String laned = "pb-laned-" + UUID.randomUUID();
    private final String plain = "pb-plain-" + UUID.randomUUID();
    private long acmeKey;
    private long acmeBulk;
    private long acmeCritical;

    @BeforeEach
    void partitions() {
        browser.jdbc = jdbc;
        acmeKey = row(laned, "acme", "", 0, 0, 0, null, null);
        acmeBulk = row(laned, "acme", "bulk", 27, 1, 5, "-60 seconds", "capacity_full");
        acmeCritical = row(laned, "acme", "critical", 3, 0, 7, "-5 seconds", "lane_full");
        row(laned, "globex", "", 0, 0, 0, null, null);
        row(laned, "globex", "bulk", 4, 0, 1, null, null);
        row(plain, "acme", "", 10, 2, 9, "-1 seconds", "throttle_empty");
    }

    @AfterEach
    void removeThem() {
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (SELECT id FROM dispatch.partitions"
                + " WHERE policy_name IN (?, ?))", laned, plain);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name IN (?, ?)", laned, plain);
    }

    @Test
    void theKeysPageListsTheJobsOfAllItsLanesAndALanesPageItsOwn() {
        MonitoringRepository repository = new MonitoringRepository();
        repository.jdbc = jdbc;
        for (long lane : new long[] {acmeBulk, acmeCritical, acmeBulk}) {
            db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters) VALUES (?, 'report', '{}')", lane);
        }
        assertThat(repository.staged(acmeKey, 10)).extracting(StagedJobView::lane).containsExactlyInAnyOrder("bulk", "critical", "bulk");
        assertThat(repository.staged(acmeBulk, 10)).extracting(StagedJobView::lane).containsExactly("bulk", "bulk");
        assertThat(repository.staged(acmeCritical, 10)).hasSize(1);
        db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, due_at) VALUES (?, 'report', '{}',"
                + " '2031-01-01T00:00:00Z')", acmeCritical);
        assertThat(repository.nextDue(acmeKey)).as("the key's next due is its lanes' earliest")
                .isEqualTo(java.time.Instant.parse("2031-01-01T00:00:00Z"));
        assertThat(repository.nextDue(acmeBulk)).isNull();
    }

    @Test
    void aKeyIsOneRowWithItsLanesAsColumnsAndTheFiguresAddUp() {
        PartitionQuery query = new PartitionQuery(laned, null, "pendingCount", false, 0, 25);
        assertThat(browser.count(query)).isEqualTo(2);
        List<Partition> page = browser.page(query);
        assertThat(page).extracting(Partition::getPartitionKey).containsExactly("acme", "globex");

        Partition acme = page.get(0);
        assertThat(acme.getId()).as("the key's own row opens its page").isEqualTo(acmeKey);
        assertThat(acme.getLane()).isEmpty();
        assertThat(acme.getPendingCount()).isEqualTo(30);
        assertThat(acme.getParkedCount()).isEqualTo(1);
        assertThat(acme.getTotalAdmitted()).isEqualTo(12);
        assertThat(acme.getLastDenyReason()).as("the latest denial of its lanes").isEqualTo("lane_full");
        assertThat(acme.getLanes()).containsExactly(new Partition.LaneCount(acmeBulk, "bulk", 27, 1, 5),
                new Partition.LaneCount(acmeCritical, "critical", 3, 0, 7));
        assertThat(page.get(1).getLanes()).extracting(Partition.LaneCount::lane, Partition.LaneCount::pendingCount)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("bulk", 4));
    }

    @Test
    void theDashboardAndThePoliciesPageCountKeysAndRankThemByTheirLanesSums() {
        MonitoringRepository repository = new MonitoringRepository();
        repository.jdbc = jdbc;
        long[] totals = repository.totals(List.of(laned, plain));
        assertThat(totals[0]).as("pending").isEqualTo(27 + 3 + 4 + 10);
        assertThat(totals[4]).as("partitions: keys, not lane rows").isEqualTo(3);
        assertThat(repository.policyTotals().get(laned)[0]).isEqualTo(2);
        assertThat(repository.topPending(laned, 5)).extracting(TopPartition::id, TopPartition::key, TopPartition::count)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(acmeKey, "acme", 30L), org.assertj.core.groups.Tuple.tuple(
                        browser.page(new PartitionQuery(laned, "globex", null, false, 0, 1)).get(0).getId(), "globex", 4L));
        assertThat(repository.topAdmitted(laned, 1)).extracting(TopPartition::count).containsExactly(12L);
    }

    @Test
    void aPolicyWithoutLanesKeepsOneRowPerKeyWithNoLanes() {
        List<Partition> both = browser.page(new PartitionQuery(null, "acme", "partitionKey", true, 0, 25)).stream()
                .filter(p -> p.getPolicyName().equals(laned) || p.getPolicyName().equals(plain)).toList();
        assertThat(both).hasSize(2);
        Partition plainAcme = both.stream().filter(p -> p.getPolicyName().equals(plain)).findFirst().orElseThrow();
        assertThat(plainAcme.getPendingCount()).isEqualTo(10);
        assertThat(plainAcme.getLanes()).isEmpty();
        assertThat(plainAcme.getLastDenyReason()).isEqualTo("throttle_empty");
    }

    @Test
    void findOnTheKeysRowIsTheWholeKeyAndOnALanesRowThatLaneAlone() {
        Partition key = browser.find(acmeKey);
        assertThat(key.getPendingCount()).isEqualTo(30);
        assertThat(key.getLanes()).hasSize(2);

        Partition bulk = browser.find(acmeBulk);
        assertThat(bulk.getId()).isEqualTo(acmeBulk);
        assertThat(bulk.getLane()).isEqualTo("bulk");
        assertThat(bulk.getPendingCount()).isEqualTo(27);
        assertThat(bulk.getLanes()).as("a lane's page is that lane's").isEmpty();

        assertThat(browser.find(-1)).isNull();
    }

    @Test
    void sortingByAFigureSortsTheKeysByTheirSums() {
        assertThat(browser.page(new PartitionQuery(laned, null, "totalAdmitted", true, 0, 25)))
                .extracting(Partition::getPartitionKey, Partition::getTotalAdmitted)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("globex", 1L), org.assertj.core.groups.Tuple.tuple("acme", 12L));
        assertThat(browser.page(new PartitionQuery(laned, null, "pendingCount", false, 1, 1)))
                .as("the second page of one").extracting(Partition::getPartitionKey).containsExactly("globex");
    }

    private long row(String policy, String key, String lane, int pending, int parked, long admitted, String deniedAgo, String reason) {
        return db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, lane, context, pending_count, parked_count,"
                        + " total_admitted, last_denied_at, last_deny_reason) VALUES (?, ?, ?, '{}', ?, ?, ?,"
                        + " now() + (?)::interval, ?) RETURNING id",
                policy, key, lane, pending, parked, admitted, deniedAgo, reason);
    }
}
