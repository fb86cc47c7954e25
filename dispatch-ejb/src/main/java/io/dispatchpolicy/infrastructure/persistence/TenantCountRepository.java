package io.dispatchpolicy.infrastructure.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tenants' submissions per time bucket, for demotion rules, and the tenants demoted lately (ADR 0011).
 */
@ApplicationScoped
public class TenantCountRepository {

    // Adds this call's submissions to each tenant's current bucket of each resolution. Rows arrive
    // sorted by tenant, then resolution, so two calls lock them in one order. The row lock is held until
    // the submission commits: a concurrent submission of the same tenant waits here, then counts these.
    private static final String ADD = """
            INSERT INTO dispatch.tenant_submissions AS t (policy_name, tenant, resolution_s, bucket_start, submissions)
            SELECT ?, u.tenant, r.res, to_timestamp(floor(extract(epoch FROM statement_timestamp()) / r.res) * r.res), u.n
              FROM unnest(?::text[], ?::int[]) WITH ORDINALITY AS u(tenant, n, ord)
             CROSS JOIN unnest(?::int[]) AS r(res)
             ORDER BY u.ord, r.res
            ON CONFLICT (policy_name, tenant, resolution_s, bucket_start)
               DO UPDATE SET submissions = t.submissions + EXCLUDED.submissions
            """;

    // Each tenant's submissions in each window, this call's included: the buckets that start inside the
    // window. A statement of its own, after ADD: its snapshot includes what every earlier holder of the
    // bucket locks committed.
    private static final String WINDOWS = """
            SELECT u.tenant, w.idx, coalesce(sum(t.submissions), 0)
              FROM unnest(?::text[]) AS u(tenant)
             CROSS JOIN unnest(?::int[], ?::int[]) WITH ORDINALITY AS w(res, per_s, idx)
              LEFT JOIN dispatch.tenant_submissions t
                ON t.policy_name = ? AND t.tenant = u.tenant AND t.resolution_s = w.res
               AND t.bucket_start > statement_timestamp() - make_interval(secs => w.per_s)
             GROUP BY u.tenant, w.idx
            """;

    private static final String DEMOTED = """
            INSERT INTO dispatch.demotions AS d (policy_name, tenant, lane, rule, submissions, demoted_at, until)
            SELECT ?, u.tenant, u.lane, u.rule, u.n, clock_timestamp(), clock_timestamp() + make_interval(secs => u.per_s)
              FROM unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::int[]) AS u(tenant, lane, rule, n, per_s)
            ON CONFLICT (policy_name, tenant) DO UPDATE
               SET lane = EXCLUDED.lane, rule = EXCLUDED.rule, submissions = EXCLUDED.submissions,
                   demoted_at = EXCLUDED.demoted_at, until = greatest(d.until, EXCLUDED.until)
            """;

    @Inject
    Jdbc jdbc;

    /**
     * Counts submissions and reads the windows they fall in.
     *
     * @param tenants     tenants in code-point order, each once
     * @param counts      this call's submissions of each
     * @param resolutions the bucket sizes the rules use, ascending
     * @param windows     per rule: its resolution and window in seconds
     * @return per tenant, its submissions in each rule's window (in rule order), this call's included
     */
    public Map<String, long[]> addAndCount(String policy, List<String> tenants, List<Integer> counts, List<Integer> resolutions,
                                           List<int[]> windows) {
        jdbc.update(ADD, (c, st) -> {
            st.setString(1, policy);
            st.setArray(2, Jdbc.texts(c, tenants));
            st.setArray(3, Jdbc.ints(c, counts));
            st.setArray(4, Jdbc.ints(c, resolutions));
        });
        List<Integer> res = new ArrayList<>();
        List<Integer> per = new ArrayList<>();
        windows.forEach(w -> {
            res.add(w[0]);
            per.add(w[1]);
        });
        Map<String, long[]> byTenant = new HashMap<>();
        jdbc.query(WINDOWS, (c, st) -> {
            st.setArray(1, Jdbc.texts(c, tenants));
            st.setArray(2, Jdbc.ints(c, res));
            st.setArray(3, Jdbc.ints(c, per));
            st.setString(4, policy);
        }, rs -> byTenant.computeIfAbsent(rs.getString(1), k -> new long[windows.size()])[rs.getInt(2) - 1] = rs.getLong(3));
        return byTenant;
    }

    /** A tenant demoted by this call: the lane, the rule, its count in the rule's window, the window. */
    public record Demoted(String tenant, String lane, String rule, int submissions, int windowSeconds) {
    }

    /** Records (or refreshes) the tenants this call demoted, for the console. */
    public void demoted(String policy, List<Demoted> demoted) {
        if (demoted.isEmpty()) {
            return;
        }
        jdbc.update(DEMOTED, (c, st) -> {
            st.setString(1, policy);
            st.setArray(2, Jdbc.texts(c, demoted.stream().map(Demoted::tenant).toList()));
            st.setArray(3, Jdbc.texts(c, demoted.stream().map(Demoted::lane).toList()));
            st.setArray(4, Jdbc.texts(c, demoted.stream().map(Demoted::rule).toList()));
            st.setArray(5, Jdbc.ints(c, demoted.stream().map(Demoted::submissions).toList()));
            st.setArray(6, Jdbc.ints(c, demoted.stream().map(Demoted::windowSeconds).toList()));
        });
    }
}
