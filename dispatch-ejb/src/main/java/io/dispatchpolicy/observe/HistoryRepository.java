package io.dispatchpolicy.observe;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** Adds counts to the per-partition, per-minute history (V19), many rows in one statement. */
@ApplicationScoped
public class HistoryRepository {

    // Rows arrive sorted by partition and minute: two nodes adding to the same rows lock them in one order.
    private static final Sql ADD = Sql.of("""
            INSERT INTO dispatch.partition_minutes AS h (partition_id, minute, policy_name, admitted, completed, failed)
            SELECT u.partition_id, to_timestamp(u.minute_ms / 1000.0), u.policy_name, u.admitted, u.completed, u.failed
              FROM unnest(:partitions::bigint[], :minuteMillis::bigint[], :policies::text[], :admitted::int[], :completed::int[], :failed::int[])
                   AS u(partition_id, minute_ms, policy_name, admitted, completed, failed)
            ON CONFLICT (partition_id, minute) DO UPDATE
               SET admitted = h.admitted + EXCLUDED.admitted, completed = h.completed + EXCLUDED.completed,
                   failed = h.failed + EXCLUDED.failed
            """);

    @Inject
    Jdbc jdbc;

    /** One minute of one partition's counts. */
    public record Minute(long partitionId, long minuteMillis, String policyName, int admitted, int completed, int failed) {
    }

    /** Adds the minutes (sorted by partition, then minute, by the caller). */
    public void add(List<Minute> minutes) {
        if (minutes.isEmpty()) {
            return;
        }
        jdbc.update(ADD, Params.of().longs("partitions", minutes.stream().map(Minute::partitionId).toList())
                .longs("minuteMillis", minutes.stream().map(Minute::minuteMillis).toList())
                .texts("policies", minutes.stream().map(Minute::policyName).toList())
                .ints("admitted", minutes.stream().map(Minute::admitted).toList())
                .ints("completed", minutes.stream().map(Minute::completed).toList())
                .ints("failed", minutes.stream().map(Minute::failed).toList()));
    }
}
