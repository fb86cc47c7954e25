package io.dispatchpolicy.infrastructure.persistence;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * Transactions for engine tests, as JTA gives them in the server: every statement a thread runs inside
 * {@link #inTransaction} goes through one connection, committed at the end (rolled back on an exception).
 * Several threads are several concurrent transactions — several submitters, on as many nodes as one likes.
 */
public final class Transactions {

    private final DataSource dataSource;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();
    private final Jdbc jdbc;

    public Transactions(DataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbc = Jdbc.over((DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && current.get() != null) {
                        return unclosable(current.get());
                    }
                    return method.invoke(dataSource, args);
                }));
    }

    /** Repositories given this run their statements in the calling thread's transaction, if it has one. */
    public Jdbc jdbc() {
        return jdbc;
    }

    public <T> T inTransaction(Supplier<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            current.set(c);
            try {
                T result = work.get();
                c.commit();
                return result;
            } catch (RuntimeException | Error e) {
                c.rollback();
                throw e;
            } finally {
                current.remove();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Connection unclosable(Connection c) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getName().equals("close") ? null : invoke(c, method, args));
    }

    private static Object invoke(Connection c, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(c, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
