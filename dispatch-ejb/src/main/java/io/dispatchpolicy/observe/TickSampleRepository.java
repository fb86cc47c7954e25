package io.dispatchpolicy.observe;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.JsonCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** One sample row per tick run: what the console charts. */
@ApplicationScoped
public class TickSampleRepository {

    private static final String INSERT = """
            INSERT INTO dispatch.tick_samples
                   (node_id, started_at, duration_ms, busy_ms, iterations, claimed, admitted, denied, pending, in_flight,
                    completed, failed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, (SELECT count(*) FROM dispatch.inflight_jobs), ?, ?)
            """;

    @Inject
    Jdbc jdbc;

    public void record(UUID node, Instant startedAt, long durationMs, long busyMs, int iterations, int claimed,
                       int admitted, Map<String, Integer> deniedByReason, long pending, long completed, long failed) {
        jdbc.update(INSERT, (c, st) -> {
            st.setObject(1, node);
            st.setTimestamp(2, Timestamp.from(startedAt));
            st.setInt(3, (int) Math.min(Integer.MAX_VALUE, durationMs));
            st.setInt(4, (int) Math.min(Integer.MAX_VALUE, busyMs));
            st.setInt(5, iterations);
            st.setInt(6, claimed);
            st.setInt(7, admitted);
            st.setString(8, JsonCodec.write(deniedByReason));
            st.setLong(9, pending);
            st.setInt(10, (int) Math.min(Integer.MAX_VALUE, completed));
            st.setInt(11, (int) Math.min(Integer.MAX_VALUE, failed));
        });
    }
}
