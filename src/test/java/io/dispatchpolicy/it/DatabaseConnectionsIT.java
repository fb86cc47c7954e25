package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.node.DatabaseOutage;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The datasource's pool after the database ended its connections, as a restart does (ADR 0037): the
 * first use of a dead connection fails and takes every connection from before it out of the pool, so
 * nothing after it — a job's step, the engine's tick — draws one. IronJacamar's own PostgreSQL sorter
 * knew only I/O errors: a terminated backend's {@code 57P01}, then {@code 08003} ("closed"), went back
 * to the pool and failed its next users until background validation, 30 s later.
 */
class DatabaseConnectionsIT extends SystemTest {

    private static final int POOLED = 8;

    @Resource(lookup = "java:jboss/datasources/DispatchDS")
    DataSource pool;

    @Inject
    DatabaseOutage outage;

    @Inject
    DispatchOperator dispatch;

    @Test
    void connectionsTheDatabaseEndedFailOneUseAndLeaveThePoolWithTheirSiblings() throws Exception {
        // the pool holds at least POOLED connections, all idle once returned
        List<Connection> held = new ArrayList<>();
        Integer[] pids = new Integer[POOLED];
        for (int i = 0; i < POOLED; i++) {
            Connection c = pool.getConnection();
            held.add(c);
            pids[i] = backendPid(c);
        }
        try (Connection admin = pool.getConnection()) {
            for (Connection c : held) {
                c.close();
            }
            // what a restart (a fast shutdown sends each backend the same FATAL 57P01) does to them
            try (PreparedStatement terminate = admin.prepareStatement(
                    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM unnest(?::int[]) AS pid")) {
                terminate.setArray(1, admin.createArrayOf("integer", pids));
                try (ResultSet rs = terminate.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(POOLED);
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> alive(admin, pids) == 0);
        }

        // draws held at once, so they take every idle connection, the dead ones too (a draw returned at
        // once would be handed back the same live connection each time and prove nothing); the engine's
        // threads draw from the same pool meanwhile: one draw in all may fail, here or there
        int failures = 0;
        List<String> states = new ArrayList<>();
        List<Connection> drawn = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * POOLED; i++) {
                Connection c = pool.getConnection();
                drawn.add(c);
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT 1");
                } catch (SQLException e) {
                    failures++;
                    states.add(e.getSQLState());
                }
            }
        } finally {
            for (Connection c : drawn) {
                c.close();
            }
        }
        assertThat(failures).as("draws that got a connection the database had ended: %s", states).isLessThanOrEqualTo(1);
        // none is left: each of 2 × POOLED draws held at once is live now
        drawn.clear();
        try {
            for (int i = 0; i < 2 * POOLED; i++) {
                Connection c = pool.getConnection();
                drawn.add(c);
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT 1");
                }
            }
        } finally {
            for (Connection c : drawn) {
                c.close();
            }
        }

        // and the engine admits and runs a job at its first attempt (it may have declared an outage on
        // its own dead draw, and probes every 2 s)
        await().atMost(Duration.ofSeconds(10)).until(() -> !outage.isDown());
        long id = dispatch.submit("it-flow", Params.of("tenant", "pool-after-restart"));
        await().atMost(Duration.ofSeconds(60)).until(() -> dispatch.status(id).executionId().isPresent()
                && "COMPLETED".equals(db.batchStatus(dispatch.status(id).executionId().getAsLong())));
        assertThat(db.executionsPerSubmission("it-flow").get(id)).isEqualTo(1);
    }

    private static int backendPid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int alive(Connection admin, Integer[] pids) throws SQLException {
        try (PreparedStatement ps = admin.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(?)")) {
            ps.setArray(1, admin.createArrayOf("integer", pids));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
