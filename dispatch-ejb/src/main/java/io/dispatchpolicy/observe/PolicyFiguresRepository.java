package io.dispatchpolicy.observe;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.node.NodeRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the database holds per policy now, for the metrics' gauges (two grouped scans, every 10 s per node). */
@ApplicationScoped
public class PolicyFiguresRepository {

    // figure name, policy, value: the partitions' counters and the in-flight rows
    private static final Sql FIGURES = Sql.of("""
            SELECT f.figure, p.policy_name, f.value
              FROM (SELECT policy_name, sum(pending_count) AS pending, sum(scheduled_count) AS scheduled,
                           sum(parked_count) AS parked
                      FROM dispatch.partitions GROUP BY policy_name) p
             CROSS JOIN LATERAL (VALUES ('dispatch.jobs.pending', p.pending), ('dispatch.jobs.scheduled', p.scheduled),
                                        ('dispatch.jobs.parked', p.parked)) AS f(figure, value)
            UNION ALL
            SELECT 'dispatch.jobs.inflight', policy_name, count(*) FROM dispatch.inflight_jobs
             WHERE policy_name IS NOT NULL GROUP BY policy_name
            """);

    // waiting jobs in shards no live node admits (liveness as recovery judges it, as the dashboard's hint): per policy
    private static final Sql UNSERVED = NodeRepository.withGone(Sql.template("""
            WITH live AS (
                SELECT n.shards FROM dispatch.nodes n WHERE NOT {{gone}})
            SELECT p.policy_name, sum(p.pending_count)
              FROM dispatch.partitions p
             WHERE p.pending_count > 0 AND p.shard <> ''
               AND NOT EXISTS (SELECT 1 FROM live WHERE live.shards IS NULL OR p.shard = ANY (live.shards))
             GROUP BY p.policy_name
            """));

    /** Every figure the gauges show, each a map from policy to value; a figure with no rows maps nothing. */
    public static final List<String> FIGURE_NAMES = List.of("dispatch.jobs.pending", "dispatch.jobs.scheduled",
            "dispatch.jobs.parked", "dispatch.jobs.inflight");

    @Inject
    Jdbc jdbc;

    /** Per policy, the jobs waiting in shards no live node admits (none: an empty map). */
    public Map<String, Long> unserved(java.time.Duration staleAfter, java.time.Duration grace) {
        Map<String, Long> unserved = new HashMap<>();
        jdbc.query(UNSERVED, NodeRepository.gone(Params.of(), staleAfter, grace), rs -> unserved.put(rs.getString(1), rs.getLong(2)));
        return unserved;
    }

    public Map<String, Map<String, Long>> read() {
        Map<String, Map<String, Long>> figures = new HashMap<>();
        FIGURE_NAMES.forEach(name -> figures.put(name, new HashMap<>()));
        jdbc.query(FIGURES, Params.of(), rs -> figures.get(rs.getString(1)).put(rs.getString(2), rs.getLong(3)));
        return figures;
    }
}
