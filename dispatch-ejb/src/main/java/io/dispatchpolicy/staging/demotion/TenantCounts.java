package io.dispatchpolicy.staging.demotion;

import io.dispatchpolicy.domain.lane.TenantWindow;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.spi.Demotion;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The statement that counts a call's jobs for their tenants (ADR 0011), and what it returns: each
 * tenant's ring at each resolution its policy's rules use ({@code dispatch.tenant_windows}, V22/V23).
 *
 * <p>It upserts each tenant's row (a first submission creates it), takes its row lock until the
 * submitting transaction ends, adds the call's jobs ({@code dispatch.ring_add}: the total alone while the
 * bucket is the newest) and returns the ring as it now is, with every earlier submission of the tenant:
 * {@link NoisyTenants} places the jobs by it ({@link io.dispatchpolicy.domain.lane.DemotedPlacement}) before
 * they are staged. One way to count, for a single submission and a bulk call alike.
 */
final class TenantCounts {

    // Per ring row: its tenant and resolution, the ring, how many buckets its newest is ahead of the
    // statement's and how far the statement's time is into its bucket (TenantWindow's fields)
    static final String RING = """
            t.tenant, t.resolution_s, t.total, t.older,
                      t.newest - floor(extract(epoch FROM statement_timestamp()) / t.resolution_s)::bigint,
                      (extract(epoch FROM statement_timestamp())
                       - floor(extract(epoch FROM statement_timestamp()) / t.resolution_s) * t.resolution_s)::float8""";

    // Each tenant's row per resolution upserted, tenants by code point and resolutions ascending, so two
    // calls lock in one order.
    static final Sql COUNT = Sql.template("""
            INSERT INTO dispatch.tenant_windows AS t (policy_name, tenant, resolution_s, newest, total, older)
            SELECT :policy, u.tenant, r.res, floor(extract(epoch FROM statement_timestamp()) / r.res)::bigint, u.n,
                   array_fill(0::bigint, ARRAY[r.slots])
              FROM unnest(:tenants::text[], :jobs::int[]) WITH ORDINALITY AS u(tenant, n, ord)
             CROSS JOIN unnest(:resolutions::int[], :slots::int[]) AS r(res, slots)
             ORDER BY u.ord, r.res
            ON CONFLICT (policy_name, tenant, resolution_s) DO UPDATE
               SET newest = greatest(t.newest, EXCLUDED.newest),
                   total = t.total + EXCLUDED.total,
                   older = dispatch.ring_add(t.older, t.total, t.newest, EXCLUDED.newest, EXCLUDED.total::int,
                                             cardinality(EXCLUDED.older))
            RETURNING {{ring}}
            """).with("ring", RING);

    private TenantCounts() {
    }

    /**
     * Counts a call's jobs for their tenants and returns each tenant's count in each rule's window
     * (rules' order) with every job of the call counted.
     *
     * @param perTenant the call's jobs per tenant, tenants in code point order (two calls lock their rows in one order)
     */
    static Map<String, int[]> count(Jdbc jdbc, String policyName, Map<String, Integer> perTenant, List<Demotion> rules) {
        List<String> tenants = new ArrayList<>(perTenant.keySet());
        Map<Integer, Integer> slots = Demotion.slotsByResolution(rules);
        return windows(rules, jdbc.query(COUNT, Params.of().text("policy", policyName).texts("tenants", tenants)
                .ints("jobs", new ArrayList<>(perTenant.values())).ints("resolutions", new ArrayList<>(slots.keySet()))
                .ints("slots", new ArrayList<>(slots.values())), TenantCounts::ring));
    }

    /** A ring COUNT returned, by its tenant. */
    static Map.Entry<String, TenantWindow> ring(ResultSet rs) throws SQLException {
        return Map.entry(rs.getString(1), new TenantWindow(rs.getInt(2), rs.getLong(3),
                Arrays.stream((Long[]) rs.getArray(4).getArray()).mapToLong(Long::longValue).toArray(),
                rs.getLong(5), rs.getDouble(6)));
    }

    /** Per tenant, its count in each rule's window (rules' order), from the rings COUNT returned. */
    static Map<String, int[]> windows(List<Demotion> rules, List<Map.Entry<String, TenantWindow>> rings) {
        Map<String, int[]> windows = new HashMap<>();
        for (Map.Entry<String, TenantWindow> ring : rings) {
            int[] perRule = windows.computeIfAbsent(ring.getKey(), t -> new int[rules.size()]);
            for (int r = 0; r < rules.size(); r++) {
                if (rules.get(r).resolutionSeconds() == ring.getValue().resolutionSeconds()) {
                    perRule[r] = ring.getValue().count(rules.get(r).per());
                }
            }
        }
        return windows;
    }
}
