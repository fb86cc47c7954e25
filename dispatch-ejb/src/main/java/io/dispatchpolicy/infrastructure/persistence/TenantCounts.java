package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.domain.lane.DemotedPlacement;
import io.dispatchpolicy.domain.lane.TenantWindow;
import io.dispatchpolicy.spi.Demotion;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The statements that count a call's jobs for their tenants (ADR 0011), and what they return: each
 * tenant's ring at each resolution its policy's rules use ({@code dispatch.tenant_windows}, V22/V23).
 *
 * <p>Both statements take the tenant's row lock, add the call's jobs ({@code dispatch.ring_add}: the
 * total alone while the bucket is the newest) and return the ring as it now is, with every earlier
 * submission of the tenant. Each row also checks a guessed placement against its bounds
 * ({@link DemotedPlacement#bounds}): it sets {@code dispatch.counted} to the call's token when the
 * counts lie within them, {@code dispatch.misplaced} when not, both transaction-local. The staging
 * statement sent behind it stages only when the token was counted and not misplaced, so a wrong guess,
 * or a tenant with no row yet for the single-tenant update to find, stages nothing.
 *
 * <p>The check is written out once per rule ({@code dispatch.ring_within}: two subscripts of the ring),
 * so the texts depend on the number of rules and are built once per number.
 */
final class TenantCounts {

    // Per ring row: its tenant and resolution, the ring, how many buckets its newest is ahead of the
    // statement's and how far the statement's time is into its bucket (TenantWindow's fields)
    private static final String RING = """
            t.tenant, t.resolution_s, t.total, t.older,
                      t.newest - floor(extract(epoch FROM statement_timestamp()) / t.resolution_s)::bigint,
                      (extract(epoch FROM statement_timestamp())
                       - floor(extract(epoch FROM statement_timestamp()) / t.resolution_s) * t.resolution_s)::float8""";

    // Any call: each tenant's row per resolution upserted (a first submission creates it), tenants by
    // code point and resolutions ascending, so two calls lock in one order. A rule's bounds are arrays in
    // the call's tenant order, found by the row's tenant.
    private static final String COUNT = """
            INSERT INTO dispatch.tenant_windows AS t (policy_name, tenant, resolution_s, newest, total, older)
            SELECT ?, u.tenant, r.res, floor(extract(epoch FROM statement_timestamp()) / r.res)::bigint, u.n,
                   array_fill(0::bigint, ARRAY[r.slots])
              FROM unnest(?::text[], ?::int[]) WITH ORDINALITY AS u(tenant, n, ord)
             CROSS JOIN unnest(?::int[], ?::int[]) AS r(res, slots)
             ORDER BY u.ord, r.res
            ON CONFLICT (policy_name, tenant, resolution_s) DO UPDATE
               SET newest = greatest(t.newest, EXCLUDED.newest),
                   total = t.total + EXCLUDED.total,
                   older = dispatch.ring_add(t.older, t.total, t.newest, EXCLUDED.newest, EXCLUDED.total::int,
                                             cardinality(EXCLUDED.older))
            RETURNING ${ring},
                      set_config(CASE WHEN ${within} THEN 'dispatch.counted' ELSE 'dispatch.misplaced' END, ?, true)
            """.replace("${ring}", RING);

    private static final String WITHIN = """
            dispatch.ring_within(t.total, t.older, t.newest, t.resolution_s, ?::int, ?::int,
                                                     (?::int[])[array_position(?::text[], t.tenant)],
                                                     (?::int[])[array_position(?::text[], t.tenant)])""";

    // The common single submission: one tenant, its rules at one resolution. An UPDATE of scalars finds
    // the row by its key: cheaper than the upsert of arrays by a sort, a join and a speculative insertion.
    // A tenant with no row yet updates nothing and sets neither setting: the call is then counted by
    // COUNT, which creates the row.
    private static final String COUNT_ONE = """
            UPDATE dispatch.tenant_windows AS t
               SET newest = greatest(t.newest, b.bucket),
                   total = t.total + b.n,
                   older = dispatch.ring_add(t.older, t.total, t.newest, b.bucket, b.n, b.slots)
              FROM (SELECT ?::int AS n, ?::int AS slots, floor(extract(epoch FROM statement_timestamp()) / ?::int)::bigint AS bucket) b
             WHERE t.policy_name = ? AND t.tenant = ? AND t.resolution_s = ?
            RETURNING ${ring},
                      set_config(CASE WHEN ${within} THEN 'dispatch.counted' ELSE 'dispatch.misplaced' END, ?, true)
            """.replace("${ring}", RING);

    private static final String WITHIN_ONE = """
            dispatch.ring_within(t.total, t.older, t.newest, t.resolution_s, t.resolution_s, ?::int, ?::int, ?::int)""";

    /** The statements for policies with this many rules. */
    record Statements(String count, String countAndStage, String countOneAndStage) {
    }

    private static final Map<Integer, Statements> BY_RULES = new ConcurrentHashMap<>();

    private TenantCounts() {
    }

    /** The counting statements for {@code rules} rules, alone and before {@code stage}; built once per number. */
    static Statements statements(int rules, String stage) {
        return BY_RULES.computeIfAbsent(rules, n -> {
            String count = COUNT.replace("${within}", allOf(n, WITHIN));
            String one = COUNT_ONE.replace("${within}", allOf(n, WITHIN_ONE));
            return new Statements(count, Jdbc.both(count, stage), Jdbc.both(one, stage));
        });
    }

    private static String allOf(int rules, String check) {
        return rules == 0 ? "true" : String.join("\n                           AND ", java.util.Collections.nCopies(rules, check));
    }

    /**
     * COUNT's parameters: the tenants' jobs (in lock order), the rings' lengths by resolution
     * ({@link Demotion#slotsByResolution}), a guess's bounds (or none) and its token.
     */
    static StagingRepository.StatementBinder counting(String policyName, Map<String, Integer> perTenant, List<Demotion> rules,
                                                      Map<Integer, Integer> slots, List<DemotedPlacement.Bound> bounds, String token) {
        List<String> tenants = new ArrayList<>(perTenant.keySet());
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < tenants.size(); i++) {
            position.put(tenants.get(i), i);
        }
        Integer[][] lo = new Integer[rules.size()][tenants.size()];
        Integer[][] hi = new Integer[rules.size()][tenants.size()];
        for (DemotedPlacement.Bound b : bounds) {
            lo[b.rule()][position.get(b.tenant())] = b.min();
            hi[b.rule()][position.get(b.tenant())] = b.max();
        }
        return (c, st, i) -> {
            st.setString(i++, policyName);
            st.setArray(i++, Jdbc.texts(c, tenants));
            st.setArray(i++, Jdbc.ints(c, new ArrayList<>(perTenant.values())));
            st.setArray(i++, Jdbc.ints(c, new ArrayList<>(slots.keySet())));
            st.setArray(i++, Jdbc.ints(c, new ArrayList<>(slots.values())));
            for (int r = 0; r < rules.size(); r++) {
                st.setInt(i++, rules.get(r).resolutionSeconds());
                st.setInt(i++, (int) rules.get(r).per().toSeconds());
                st.setArray(i++, Jdbc.ints(c, Arrays.asList(lo[r])));
                st.setArray(i++, Jdbc.texts(c, tenants));
                st.setArray(i++, Jdbc.ints(c, Arrays.asList(hi[r])));
                st.setArray(i++, Jdbc.texts(c, tenants));
            }
            st.setString(i++, token);
            return i;
        };
    }

    /**
     * COUNT_ONE's parameters, for a call of one tenant whose rules use one resolution (the one entry of
     * {@code slots}): the tenant and its jobs, its ring's length and resolution, the bounds (or none) and the token.
     */
    static StagingRepository.StatementBinder countingOne(String policyName, Map.Entry<String, Integer> tenantJobs, List<Demotion> rules,
                                                         Map<Integer, Integer> slots, List<DemotedPlacement.Bound> bounds, String token) {
        Map.Entry<Integer, Integer> ring = slots.entrySet().iterator().next();
        Integer[] lo = new Integer[rules.size()];
        Integer[] hi = new Integer[rules.size()];
        for (DemotedPlacement.Bound b : bounds) {
            lo[b.rule()] = b.min();
            hi[b.rule()] = b.max();
        }
        return (c, st, i) -> {
            st.setInt(i++, tenantJobs.getValue());
            st.setInt(i++, ring.getValue());
            st.setInt(i++, ring.getKey());
            st.setString(i++, policyName);
            st.setString(i++, tenantJobs.getKey());
            st.setInt(i++, ring.getKey());
            for (int r = 0; r < rules.size(); r++) {
                st.setInt(i++, (int) rules.get(r).per().toSeconds());
                st.setObject(i++, lo[r], Types.INTEGER);
                st.setObject(i++, hi[r], Types.INTEGER);
            }
            st.setString(i++, token);
            return i;
        };
    }

    /** A ring either statement returned, by its tenant. */
    static Map.Entry<String, TenantWindow> ring(ResultSet rs) throws SQLException {
        return Map.entry(rs.getString(1), new TenantWindow(rs.getInt(2), rs.getLong(3),
                Arrays.stream((Long[]) rs.getArray(4).getArray()).mapToLong(Long::longValue).toArray(),
                rs.getLong(5), rs.getDouble(6)));
    }

    /** Per tenant, its count in each rule's window (rules' order), from the rings the statements returned. */
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
