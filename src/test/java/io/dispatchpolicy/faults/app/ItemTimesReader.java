package io.dispatchpolicy.faults.app;

import jakarta.annotation.Resource;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import javax.sql.DataSource;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Scenario (k)'s chunk reader: {@code count} items, each read recorded in {@code fault_item_reads} with the
 * database's clock (the scenario creates the table), so reads on both nodes are timed by one clock. The engine's
 * {@code dispatchItemThrottle} listener draws a token before each read.
 */
@Dependent
@Named("faultItemTimesReader")
public class ItemTimesReader extends AbstractItemReader {

    @Resource(lookup = "java:jboss/datasources/DispatchDS")
    DataSource dataSource;

    @Inject
    @BatchProperty
    String count;

    @Inject
    @BatchProperty
    String tenant;

    private int last;

    @Override
    public void open(Serializable checkpoint) {
        last = checkpoint == null ? 0 : (Integer) checkpoint;
    }

    @Override
    public Object readItem() throws SQLException {
        if (last >= Integer.parseInt(count.strip())) {
            return null;
        }
        last++;
        try (Connection c = dataSource.getConnection();
             PreparedStatement st = c.prepareStatement("INSERT INTO fault_item_reads (tenant, read_at) VALUES (?, clock_timestamp())")) {
            st.setString(1, tenant);
            st.executeUpdate();
        }
        return last;
    }

    @Override
    public Serializable checkpointInfo() {
        return last;
    }
}
