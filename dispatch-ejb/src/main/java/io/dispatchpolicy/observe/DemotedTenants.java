package io.dispatchpolicy.observe;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.spi.Demotion;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;

/** The tenants a policy's demotion rules demote now (ADR 0011), read from the rings staging counts in: for the console and the metrics. */
@ApplicationScoped
public class DemotedTenants {

    // Tenants over a rule's threshold now, from the same rings the staging statements count in (ADR
    // 0011; each tenant's ring unrolled, older[i] the submissions before bucket newest - i + 1 began):
    // from_here counts a tenant's buckets from the newest back to this one. A tenant's next
    // submission is demoted while its window holds at least the threshold, so it is demoted until the
    // newest bucket at which that still holds leaves the window. Of several rules the last declared
    // wins, as at submission.
    private static final Sql DEMOTED = Sql.of("""
            WITH rules AS (
                SELECT * FROM unnest(:resolutions::int[], :perSeconds::int[], :thresholds::int[], :lanes::text[], :rules::text[]) WITH ORDINALITY AS r(res, per_s, threshold, lane, rule, idx)),
            buckets AS (
                SELECT r.idx, t.tenant, b.bucket_start, b.from_here
                  FROM rules r
                  JOIN dispatch.tenant_windows t ON t.policy_name = :policy AND t.resolution_s = r.res
                 CROSS JOIN LATERAL (
                    SELECT to_timestamp((t.newest - a.age + 1) * t.resolution_s) AS bucket_start, t.total - a.before AS from_here,
                           coalesce(t.older[a.age - 1], t.total) - a.before AS submissions
                      FROM unnest(t.older) WITH ORDINALITY AS a(before, age)) b
                 WHERE b.submissions > 0 AND b.bucket_start > statement_timestamp() - make_interval(secs => r.per_s)),
            over AS (
                SELECT b.idx, b.tenant, max(b.from_here) AS submissions,
                       max(b.bucket_start) FILTER (WHERE b.from_here >= r.threshold) + make_interval(secs => r.per_s) AS until
                  FROM buckets b JOIN rules r ON r.idx = b.idx
                 GROUP BY b.idx, b.tenant, r.threshold, r.per_s
                HAVING max(b.from_here) > r.threshold),
            winner AS (
                SELECT DISTINCT ON (o.tenant) o.tenant, r.lane, r.rule, o.submissions, o.until
                  FROM over o JOIN rules r ON r.idx = o.idx
                 ORDER BY o.tenant, o.idx DESC)
            SELECT tenant, lane, rule, submissions, until FROM winner ORDER BY until DESC, tenant LIMIT :limit
            """);

    @Inject
    Jdbc jdbc;

    /** The reading over a database outside the container (the engine's PostgreSQL-only tests). */
    public static DemotedTenants over(Jdbc jdbc) {
        DemotedTenants demoted = new DemotedTenants();
        demoted.jdbc = jdbc;
        return demoted;
    }

    /**
     * A tenant demoted now: its new submissions go to {@code lane} because of {@code rule}
     * ({@code threshold:seconds:lane}), having had {@code submissions} in that window; until {@code until}
     * if it submits nothing more.
     */
    public record Demoted(String tenant, String lane, String rule, int submissions, Instant until) {
    }

    /** Tenants demoted now by the policy's rules in force, the latest to end first; at most {@code limit}. */
    public List<Demoted> demoted(String policy, List<Demotion> rules, int limit) {
        if (rules.isEmpty()) {
            return List.of();
        }
        return jdbc.query(DEMOTED, Params.of().ints("resolutions", rules.stream().map(Demotion::resolutionSeconds).toList())
                .ints("perSeconds", rules.stream().map(r -> (int) r.per().toSeconds()).toList())
                .ints("thresholds", rules.stream().map(Demotion::threshold).toList())
                .texts("lanes", rules.stream().map(Demotion::lane).toList())
                .texts("rules", rules.stream().map(Demotion::describe).toList())
                .text("policy", policy).integer("limit", limit), rs -> new Demoted(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getInt(4), rs.getTimestamp(5).toInstant()));
    }
}
