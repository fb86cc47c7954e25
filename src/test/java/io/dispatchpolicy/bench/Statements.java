package io.dispatchpolicy.bench;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * A case's statements as PostgreSQL counted them ({@code pg_stat_statements}, on with
 * {@code -Dbench.statements=true}): reset when the case starts, the top statements by total time written
 * when it ends, with calls, execution and planning time per job, so two cases can be compared statement by statement.
 * Inert when the extension is not loaded.
 */
final class Statements {

    private final Jdbc jdbc;
    private final boolean active;

    private Statements(Jdbc jdbc, boolean active) {
        this.jdbc = jdbc;
        this.active = active;
    }

    static Statements start(Jdbc jdbc) {
        if (!Boolean.getBoolean("dispatch.test.pg.statements")) {
            return new Statements(jdbc, false);
        }
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            s.execute("SELECT pg_stat_statements_reset()");
            return new Statements(jdbc, true);
        } catch (SQLException e) {
            throw new IllegalStateException("pg_stat_statements is not loaded", e);
        }
    }

    void write(Path file, int jobs) {
        if (!active) {
            return;
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%10s %10s %12s %12s %12s %11s %10s %9s  %s%n",
                "calls", "per job", "total ms", "us per job", "plan us/job", "plans/call", "blks/call", "rows/call", "statement"));
        try (Connection c = jdbc.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT calls, total_exec_time, regexp_replace(query, '\\s+', ' ', 'g'), total_plan_time, "
                     + "shared_blks_hit + shared_blks_read, rows, plans "
                     + "FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 25")) {
            while (rs.next()) {
                long calls = rs.getLong(1);
                double ms = rs.getDouble(2);
                String query = rs.getString(3);
                double planMs = rs.getDouble(4);
                out.append(String.format(Locale.ROOT, "%10d %10.2f %12.0f %12.1f %12.1f %11.2f %10.1f %9.1f  %s%n", calls, calls / (double) jobs, ms,
                        ms * 1000 / jobs, planMs * 1000 / jobs, rs.getLong(7) / (double) Math.max(1, calls), rs.getLong(5) / (double) Math.max(1, calls),
                        rs.getLong(6) / (double) Math.max(1, calls), query.length() > 160 ? query.substring(0, 160) : query));
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, out.toString());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
