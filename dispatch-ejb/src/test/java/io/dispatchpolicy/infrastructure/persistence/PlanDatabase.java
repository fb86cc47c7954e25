package io.dispatchpolicy.infrastructure.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain SQL over the engine's test database for tests that read plans: statements with positional
 * arguments (arrays as Java arrays), each committing on its own, and the two ways of explaining a
 * statement the engine runs without keeping its effects.
 */
public final class PlanDatabase {

    private final Jdbc jdbc;

    public PlanDatabase(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public int update(String sql, Object... args) {
        return jdbc.update(sql, (c, st) -> bind(st, args));
    }

    public long count(String sql, Object... args) {
        return jdbc.query(sql, (c, st) -> bind(st, args), rs -> rs.getLong(1)).get(0);
    }

    public List<String> strings(String sql, Object... args) {
        return jdbc.query(sql, (c, st) -> bind(st, args), rs -> rs.getString(1));
    }

    /**
     * {@code EXPLAIN (ANALYZE, FORMAT JSON)} of a statement, in a transaction rolled back afterwards:
     * the plan PostgreSQL really ran, without its effects.
     */
    public String explainAndRollBack(String sql, Object... args) {
        return rolledBack(c -> {
            try (PreparedStatement st = c.prepareStatement("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)) {
                bind(st, args);
                return first(st.executeQuery());
            }
        });
    }

    /**
     * The generic plan of a statement: what the server may cache and run for it once the driver has
     * prepared it (after five executions), not knowing the parameters' values. Prepared under
     * {@code plan_cache_mode = force_generic_plan} and explained, not executed (no row counts). The
     * statement's {@code ?} become $1, $2…; {@code values} are the EXECUTE's arguments, as SQL literals.
     */
    public String explainGeneric(String sql, String values) {
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') {
                numbered.append('$').append(++n);
            } else {
                numbered.append(ch);
            }
        }
        return rolledBack(c -> {
            try (Statement st = c.createStatement()) {
                st.execute("SET LOCAL plan_cache_mode = force_generic_plan");
                st.execute("PREPARE dispatch_generic_plan AS " + numbered);
                try {
                    return first(st.executeQuery("EXPLAIN (FORMAT JSON) EXECUTE dispatch_generic_plan(" + values + ")"));
                } finally {
                    st.execute("DEALLOCATE dispatch_generic_plan"); // a prepared statement outlives the transaction
                }
            }
        });
    }

    @FunctionalInterface
    private interface Work {
        String run(Connection c) throws SQLException;
    }

    private String rolledBack(Work work) {
        try (Connection c = jdbc.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try {
                return work.run(c);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String first(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows.get(0);
    }

    private static void bind(PreparedStatement st, Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            st.setObject(i + 1, args[i]);
        }
    }
}
