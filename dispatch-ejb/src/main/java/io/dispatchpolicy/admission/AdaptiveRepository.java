package io.dispatchpolicy.admission;

import io.dispatchpolicy.domain.gate.AdaptiveCap;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Adaptive concurrency state per partition and gate. */
@ApplicationScoped
public class AdaptiveRepository {

    private static final Sql LOAD = Sql.of("""
            SELECT gate_id, current_max, ewma_lag_ms, consecutive_failures
              FROM dispatch.adaptive_stats WHERE partition_id = :partition
            """);

    private static final Sql LOCK = Sql.of("""
            SELECT current_max, ewma_lag_ms, consecutive_failures
              FROM dispatch.adaptive_stats WHERE partition_id = :partition AND gate_id = :gate FOR UPDATE
            """);

    private static final Sql SAVE = Sql.of("""
            INSERT INTO dispatch.adaptive_stats AS a
                   (partition_id, gate_id, current_max, ewma_lag_ms, consecutive_failures, observations, updated_at)
            VALUES (:partition, :gate, :currentMax, :ewmaLagMs, :failures, 1, clock_timestamp())
            ON CONFLICT (partition_id, gate_id) DO UPDATE
               SET current_max = EXCLUDED.current_max,
                   ewma_lag_ms = EXCLUDED.ewma_lag_ms,
                   consecutive_failures = EXCLUDED.consecutive_failures,
                   observations = a.observations + 1,
                   updated_at = EXCLUDED.updated_at
            """);

    // Written under the partition's lock when a partition is first admitted through an adaptive gate,
    // so completions always find a row to lock and none of their observations is lost.
    private static final Sql SEED = Sql.of("""
            INSERT INTO dispatch.adaptive_stats (partition_id, gate_id, current_max)
            SELECT :partition, g, m FROM unnest(:gates::text[], :caps::int[]) AS t(g, m)
            ON CONFLICT (partition_id, gate_id) DO NOTHING
            """);

    @Inject
    Jdbc jdbc;

    /** Creates missing rows at their seeded cap. */
    public void seed(long partitionId, Map<String, Integer> initialMaxByGate) {
        if (initialMaxByGate.isEmpty()) {
            return;
        }
        java.util.List<String> gates = new java.util.ArrayList<>(initialMaxByGate.keySet());
        java.util.List<Integer> caps = gates.stream().map(initialMaxByGate::get).toList();
        jdbc.update(SEED, Params.of().bigint("partition", partitionId).texts("gates", gates).ints("caps", caps));
    }

    public Map<String, AdaptiveCap.State> load(long partitionId) {
        Map<String, AdaptiveCap.State> states = new HashMap<>();
        jdbc.query(LOAD, Params.of().bigint("partition", partitionId),
                rs -> states.put(rs.getString(1), new AdaptiveCap.State(rs.getInt(2), rs.getDouble(3), rs.getInt(4))));
        return states;
    }

    /**
     * Applies one observation under the row's lock, so concurrent completions of one partition each
     * count ({@code update} receives null if the row was swept meanwhile, and seeds it).
     */
    public void update(long partitionId, String gateId, UnaryOperator<AdaptiveCap.State> update) {
        Optional<AdaptiveCap.State> current = jdbc.query(LOCK, Params.of().bigint("partition", partitionId).text("gate", gateId), rs -> new AdaptiveCap.State(rs.getInt(1), rs.getDouble(2), rs.getInt(3))).stream().findFirst();
        AdaptiveCap.State next = update.apply(current.orElse(null));
        jdbc.update(SAVE, Params.of().bigint("partition", partitionId).text("gate", gateId).integer("currentMax", next.currentMax())
                .float8("ewmaLagMs", next.ewmaLagMs()).integer("failures", next.consecutiveFailures()));
    }
}
