package io.dispatchpolicy.infrastructure.persistence;

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
                   (node_id, started_at, duration_ms, iterations, claimed, admitted, denied, pending, in_flight)
            VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, (SELECT count(*) FROM dispatch.inflight_jobs))
            """;

    @Inject
    Jdbc jdbc;

    public void record(UUID node, Instant startedAt, long durationMs, int iterations, int claimed, int admitted,
                       Map<String, Integer> deniedByReason, long pending) {
        jdbc.update(INSERT, (c, st) -> {
            st.setObject(1, node);
            st.setTimestamp(2, Timestamp.from(startedAt));
            st.setInt(3, (int) Math.min(Integer.MAX_VALUE, durationMs));
            st.setInt(4, iterations);
            st.setInt(5, claimed);
            st.setInt(6, admitted);
            st.setString(7, JsonCodec.write(deniedByReason));
            st.setLong(8, pending);
        });
    }
}
