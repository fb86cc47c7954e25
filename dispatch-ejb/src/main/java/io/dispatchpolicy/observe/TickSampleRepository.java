package io.dispatchpolicy.observe;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** One sample row per tick run: what the console charts. */
@ApplicationScoped
public class TickSampleRepository {

    private static final Sql INSERT = Sql.of("""
            INSERT INTO dispatch.tick_samples
                   (node_id, started_at, duration_ms, busy_ms, iterations, claimed, admitted, denied, pending, in_flight,
                    completed, failed)
            VALUES (:node, :startedAt, :durationMs, :busyMs, :iterations, :claimed, :admitted, :denied::jsonb, :pending, (SELECT count(*) FROM dispatch.inflight_jobs), :completed, :failed)
            """);

    @Inject
    Jdbc jdbc;

    public void record(UUID node, Instant startedAt, long durationMs, long busyMs, int iterations, int claimed,
                       int admitted, Map<String, Integer> deniedByReason, long pending, long completed, long failed) {
        jdbc.update(INSERT, Params.of().uuid("node", node).timestamp("startedAt", startedAt)
                .integer("durationMs", (int) Math.min(Integer.MAX_VALUE, durationMs))
                .integer("busyMs", (int) Math.min(Integer.MAX_VALUE, busyMs))
                .integer("iterations", iterations).integer("claimed", claimed).integer("admitted", admitted)
                .text("denied", JsonCodec.write(deniedByReason)).bigint("pending", pending)
                .integer("completed", (int) Math.min(Integer.MAX_VALUE, completed))
                .integer("failed", (int) Math.min(Integer.MAX_VALUE, failed)));
    }
}
