package io.dispatchpolicy.infrastructure.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The values of a {@link Sql} statement's named parameters, bound to its positions when it runs. Each
 * value is typed where it is set (a PostgreSQL array from a list, a nullable number as its SQL type), and
 * binding checks the names both ways: a parameter without a value, or a value the statement does not
 * name, is a mistake in the code, refused before the statement is sent.
 */
public final class Params {

    @FunctionalInterface
    private interface Value {
        void set(Connection c, PreparedStatement st, int index) throws SQLException;
    }

    private final Map<String, Value> values = new HashMap<>();

    private Params() {
    }

    public static Params of() {
        return new Params();
    }

    private Params put(String name, Value value) {
        if (values.put(name, value) != null) {
            throw new IllegalArgumentException("Parameter :" + name + " is set twice");
        }
        return this;
    }

    public Params text(String name, String value) {
        return put(name, (c, st, i) -> st.setString(i, value));
    }

    /** A bigint, null as SQL NULL. */
    public Params bigint(String name, Long value) {
        return put(name, (c, st, i) -> st.setObject(i, value, Types.BIGINT));
    }

    /** An integer, null as SQL NULL. */
    public Params integer(String name, Integer value) {
        return put(name, (c, st, i) -> st.setObject(i, value, Types.INTEGER));
    }

    public Params bool(String name, boolean value) {
        return put(name, (c, st, i) -> st.setBoolean(i, value));
    }

    /** A {@code double precision}, null as SQL NULL. */
    public Params float8(String name, Double value) {
        return put(name, (c, st, i) -> {
            if (value == null) {
                st.setNull(i, Types.DOUBLE);
            } else {
                st.setDouble(i, value);
            }
        });
    }

    /** A {@code uuid} (the driver sends a {@link UUID} as one), null as SQL NULL. */
    public Params uuid(String name, UUID value) {
        return put(name, (c, st, i) -> st.setObject(i, value));
    }

    /** A timestamp, null as SQL NULL. */
    public Params timestamp(String name, Instant value) {
        return put(name, (c, st, i) -> st.setTimestamp(i, value == null ? null : Timestamp.from(value)));
    }

    /** A {@code text[]}, or SQL NULL for a null list. */
    public Params texts(String name, List<String> values) {
        return put(name, (c, st, i) -> st.setArray(i, values == null ? null : Jdbc.texts(c, values)));
    }

    /** A {@code float8[]} (null elements as SQL NULL). */
    public Params float8s(String name, List<Double> values) {
        return put(name, (c, st, i) -> st.setArray(i, c.createArrayOf("float8", values.toArray(new Double[0]))));
    }

    /** A {@code bigint[]}, or SQL NULL for a null list. */
    public Params longs(String name, List<Long> values) {
        return put(name, (c, st, i) -> st.setArray(i, values == null ? null : Jdbc.longs(c, values)));
    }

    /** An {@code int[]}. */
    public Params ints(String name, List<Integer> values) {
        return put(name, (c, st, i) -> st.setArray(i, Jdbc.ints(c, values)));
    }

    /** Binds every position of {@code sql}; an array a name uses twice is created once per position. */
    void bind(Sql sql, Connection c, PreparedStatement st) throws SQLException {
        if (!sql.names().equals(values.keySet())) {
            throw new IllegalArgumentException("Statement parameters " + sql.names() + " but values for " + values.keySet()
                    + ":\n" + sql.jdbc());
        }
        List<String> positions = sql.positions();
        for (int i = 0; i < positions.size(); i++) {
            values.get(positions.get(i)).set(c, st, i + 1);
        }
    }
}
