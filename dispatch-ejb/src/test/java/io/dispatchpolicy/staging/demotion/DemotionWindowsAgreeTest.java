package io.dispatchpolicy.staging.demotion;

import io.dispatchpolicy.domain.lane.TenantWindow;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.observe.DemotedTenants;
import io.dispatchpolicy.spi.Demotion;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tenant's window is read in two languages from one ring (ADR 0011): in Java when a submission is
 * placed ({@link TenantWindow#count}) and in SQL when the console and the metrics list the tenants
 * demoted now ({@link DemotedTenants}). Both run here on the same rings, at the edge cases, and agree.
 */
class DemotionWindowsAgreeTest {

    private static final Duration PER = Duration.ofSeconds(10);

    private static Jdbc jdbc;
    private static DemotedTenants demoted;
    private final String policy = "agree-" + UUID.randomUUID();

    @BeforeAll
    static void database() {
        jdbc = EngineDatabase.jdbc();
        demoted = DemotedTenants.over(jdbc);
    }

    /**
     * Writes a ring whose newest bucket is {@code ahead} buckets after the database's current one, from
     * per-bucket counts (newest first), on top of {@code older} submissions before the ring.
     */
    private void ring(String tenant, int ahead, long older, int slots, int... perBucket) {
        long[] cumulative = new long[slots];
        long total = older + Arrays.stream(perBucket).sum();
        long seen = 0;
        for (int i = 0; i < slots; i++) {
            seen += i < perBucket.length ? perBucket[i] : 0;
            cumulative[i] = total - seen;
        }
        jdbc.update("INSERT INTO dispatch.tenant_windows (policy_name, tenant, resolution_s, newest, total, older) "
                + "VALUES (?, ?, 1, floor(extract(epoch FROM clock_timestamp()))::bigint + ?, ?, ?)", (c, st) -> {
                    st.setString(1, policy);
                    st.setString(2, tenant);
                    st.setInt(3, ahead);
                    st.setLong(4, total);
                    st.setArray(5, c.createArrayOf("bigint", Arrays.stream(cumulative).boxed().toArray()));
                });
    }

    /** Java's count: the ring as the counting statement returns it, read by TenantWindow. */
    private int java(String tenant) {
        List<Map.Entry<String, TenantWindow>> rings = jdbc.query("SELECT " + TenantCounts.RING
                + " FROM dispatch.tenant_windows t WHERE t.policy_name = ? AND t.tenant = ? AND t.resolution_s = 1", (c, st) -> {
                    st.setString(1, policy);
                    st.setString(2, tenant);
                }, TenantCounts::ring);
        return rings.get(0).getValue().count(PER);
    }

    /** SQL's count: the console's demoted tenants under a threshold of 0 (every tenant with a submission in the window). */
    private int sql(String tenant) {
        return demoted.demoted(policy, List.of(new Demotion(0, PER, "slow")), 1_000).stream()
                .filter(d -> d.tenant().equals(tenant)).mapToInt(DemotedTenants.Demoted::submissions).findFirst().orElse(0);
    }

    private void bothCount(String tenant, int expected) {
        assertThat(java(tenant)).as("TenantWindow.count of %s", tenant).isEqualTo(expected);
        assertThat(sql(tenant)).as("DemotedTenants of %s", tenant).isEqualTo(expected);
    }

    @Test
    void everySubmissionInTheNewestBucket() {
        ring("newest", 0, 0, 10, 3);
        bothCount("newest", 3);
    }

    @Test
    void aBucketInsideTheWindowCountsAndOneOutsideDoesNot() {
        // 4 submissions 8 buckets back, 9 submissions 11 back: each a second clear of the window's edge
        ring("edges", 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 9);
        bothCount("edges", 4);
    }

    @Test
    void aWindowLongerThanTheRingCountsTheWholeRingAndNothingBeforeIt() {
        // a ring of five buckets (the rules were shorter when it was written), 100 submissions before it
        ring("short-ring", 0, 100, 5, 0, 2, 0, 0, 5);
        bothCount("short-ring", 7);
    }

    @Test
    void aLateWritersBucketAheadOfTheStatementIsCounted() {
        // a submission whose statement began later moved the ring on by one bucket
        ring("ahead", 1, 0, 60, 2, 3);
        bothCount("ahead", 5);
    }

    @Test
    void aRingWhoseSubmissionsAreAllOlderThanTheWindowCountsNothing() {
        ring("old", 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6);
        bothCount("old", 0);
    }
}
