package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.InvalidSettingException;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ApplicationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The datasource and the few JDBC idioms the repositories share. Inside a JTA transaction every
 * {@code getConnection()} returns a handle on the same enlisted connection, which JBeret's repository
 * also uses: that is what makes staging, admission and JBeret's INSERTs one transaction.
 */
@ApplicationScoped
public class Jdbc {

    @Inject
    DispatchSettings settings;

    private DataSource dataSource;

    // Looked up by the name in dispatch.datasource rather than injected by a fixed name, so an
    // application can point the engine at a datasource of its own (JBeret's repository must use it too).
    @PostConstruct
    void lookUp() {
        String name = settings.datasource();
        try {
            dataSource = InitialContext.doLookup(name);
        } catch (NamingException | ClassCastException e) {
            throw new InvalidSettingException(DispatchSettings.DATASOURCE, name,
                    "the JNDI name of a JTA datasource (" + e + ")");
        }
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * Over a datasource of the caller's, outside any container: the engine tests that need only
     * PostgreSQL run repositories through this (each statement commits on its own, as no JTA
     * transaction holds the connection).
     */
    public static Jdbc over(DataSource dataSource) {
        Jdbc jdbc = new Jdbc();
        jdbc.dataSource = dataSource;
        return jdbc;
    }

    @FunctionalInterface
    public interface Binder {
        void bind(Connection connection, PreparedStatement statement) throws SQLException;
    }

    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    public <T> List<T> query(String sql, Binder binder, RowMapper<T> mapper) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(c, s);
            return rows(s.executeQuery(), mapper);
        } catch (SQLException e) {
            throw new PersistenceFailure(sql, e);
        }
    }

    private static <T> List<T> rows(ResultSet rs, RowMapper<T> mapper) throws SQLException {
        try (rs) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(mapper.map(rs));
            }
            return rows;
        }
    }

    /** Runs a named statement ({@link Sql}) with its parameters' values. */
    public <T> List<T> query(Sql sql, Params params, RowMapper<T> mapper) {
        return query(sql.jdbc(), (c, st) -> params.bind(sql, c, st), mapper);
    }

    /** Runs a named statement ({@link Sql}) with its parameters' values; @return rows changed. */
    public int update(Sql sql, Params params) {
        return update(sql.jdbc(), (c, st) -> params.bind(sql, c, st));
    }

    public int update(String sql, Binder binder) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(c, s);
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new PersistenceFailure(sql, e);
        }
    }

    public static java.time.Instant instant(java.sql.Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** Epoch milliseconds of a nullable timestamp column; 0 for null. */
    public static long millis(java.sql.Timestamp t) {
        return t == null ? 0 : t.getTime();
    }

    /** Code point order: what PostgreSQL's "C" collation compares (statements that lock rows by text keys sort them so). */
    public static int byCodePoint(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    public static Array longs(Connection c, List<Long> values) throws SQLException {
        return c.createArrayOf("bigint", values.toArray(new Long[0]));
    }

    public static Array texts(Connection c, List<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray(new String[0]));
    }

    public static Array ints(Connection c, List<Integer> values) throws SQLException {
        return c.createArrayOf("integer", values.toArray(new Integer[0]));
    }

    /**
     * An SQL failure, with the statement's first line to tell which. An application exception for the
     * EJB container: it rolls the transaction back, and the engine reports it itself (a database
     * outage in one line a minute, not the container's stack trace per failed call).
     */
    @ApplicationException(rollback = true)
    public static class PersistenceFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public PersistenceFailure(String sql, SQLException cause) {
            super("SQL failed (" + cause.getSQLState() + "): " + cause.getMessage() + " — in: "
                    + sql.strip().lines().findFirst().orElse(""), cause);
        }
    }
}
