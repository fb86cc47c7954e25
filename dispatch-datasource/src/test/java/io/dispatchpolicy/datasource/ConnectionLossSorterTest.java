package io.dispatchpolicy.datasource;

import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionLossSorterTest {

    private final ConnectionLossSorter sorter = new ConnectionLossSorter();

    @Test
    void whatTheDriverSaysWhenTheConnectionIsGoneIsFatal() {
        // what pgjdbc 42.7 throws on a pooled connection after an immediate stop, a fast shutdown or
        // pg_terminate_backend, and on any later use of it (measured against PostgreSQL 17)
        assertTrue(sorter.isExceptionFatal(new PSQLException("An I/O error occurred while sending to the backend.",
                PSQLState.CONNECTION_FAILURE)));
        assertTrue(sorter.isExceptionFatal(new SQLException("FATAL: terminating connection due to administrator command", "57P01")));
        assertTrue(sorter.isExceptionFatal(new PSQLException("This connection has been closed.", PSQLState.CONNECTION_DOES_NOT_EXIST)));
        assertTrue(sorter.isExceptionFatal(new SQLException("FATAL: terminating connection due to idle-in-transaction timeout", "25P03")));
        assertTrue(sorter.isExceptionFatal(new SQLException("FATAL: the database system is shutting down", "57P03")));
    }

    @Test
    void aConnectionLossBehindABatchOrACauseIsFatalToo() {
        BatchUpdateException batch = new BatchUpdateException("Batch entry 0 was aborted", "", new int[0]);
        batch.setNextException(new SQLException("FATAL: terminating connection due to administrator command", "57P01"));
        assertTrue(sorter.isExceptionFatal(batch));
        assertTrue(sorter.isExceptionFatal(new SQLException("wrapped", (String) null,
                new SQLException("An I/O error occurred", "08006"))));
    }

    @Test
    void errorsOfTheStatementLeaveTheConnectionInThePool() {
        assertFalse(sorter.isExceptionFatal(new SQLException("duplicate key value violates unique constraint", "23505")));
        assertFalse(sorter.isExceptionFatal(new SQLException("could not serialize access", "40001")));
        assertFalse(sorter.isExceptionFatal(new SQLException("canceling statement due to user request", "57014")));
        assertFalse(sorter.isExceptionFatal(new SQLException("deadlock detected", "40P01")));
        assertFalse(sorter.isExceptionFatal(new SQLException("no state")));
        SQLException loop = new SQLException("loops", "42P01");
        loop.setNextException(loop);
        assertFalse(sorter.isExceptionFatal(loop));
    }
}
