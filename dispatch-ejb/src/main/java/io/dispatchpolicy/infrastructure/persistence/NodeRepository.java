package io.dispatchpolicy.infrastructure.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.UUID;

/** One row per server incarnation, with its heartbeat. */
@ApplicationScoped
public class NodeRepository {

    private static final String REGISTER = """
            INSERT INTO dispatch.nodes (id, node_name, started_at, heartbeat_at)
            VALUES (?, ?, clock_timestamp(), clock_timestamp())
            """;

    private static final String HEARTBEAT = """
            UPDATE dispatch.nodes SET heartbeat_at = clock_timestamp() WHERE id = ?
            """;

    private static final String STOPPED = """
            UPDATE dispatch.nodes SET stopped_at = clock_timestamp() WHERE id = ?
            """;

    @Inject
    Jdbc jdbc;

    public void register(UUID id, String nodeName) {
        jdbc.update(REGISTER, (c, st) -> {
            st.setObject(1, id);
            st.setString(2, nodeName);
        });
    }

    public void heartbeat(UUID id) {
        jdbc.update(HEARTBEAT, (c, st) -> st.setObject(1, id));
    }

    public void stopped(UUID id) {
        jdbc.update(STOPPED, (c, st) -> st.setObject(1, id));
    }
}
