package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * A policy's capacity: how many of its jobs are in flight, and the lock under which an admission
 * counts them and adds its own (ADR 0011).
 */
@ApplicationScoped
public class CapacityRepository {

    private static final String LOCK = """
            SELECT 1 FROM dispatch.policy_capacity WHERE policy_name = ? FOR UPDATE
            """;

    private static final String CREATE = """
            INSERT INTO dispatch.policy_capacity (policy_name) VALUES (?) ON CONFLICT DO NOTHING
            """;

    private static final String IN_FLIGHT = """
            SELECT count(*) FROM dispatch.inflight_jobs WHERE policy_name = ?
            """;

    private static final String IN_FLIGHT_BY_LANE = """
            SELECT lane, count(*) FROM dispatch.inflight_jobs WHERE policy_name = ? GROUP BY lane
            """;

    @Inject
    Jdbc jdbc;

    /**
     * Takes the policy's capacity lock for the rest of the current transaction, then counts its jobs in
     * flight. The count is a statement of its own, after the lock: in READ COMMITTED its snapshot then
     * includes the rows of every admission that held the lock before (a count in the locking statement
     * would read a snapshot from before the wait).
     */
    public long lockAndCount(String policy) {
        if (jdbc.query(LOCK, (c, st) -> st.setString(1, policy), rs -> 1).isEmpty()) {
            jdbc.update(CREATE, (c, st) -> st.setString(1, policy));
            jdbc.query(LOCK, (c, st) -> st.setString(1, policy), rs -> 1);
        }
        return inFlight(policy);
    }

    /** The policy's jobs in flight now, without the lock: what the tick plans an iteration with. */
    public long inFlight(String policy) {
        return jdbc.query(IN_FLIGHT, (c, st) -> st.setString(1, policy), rs -> rs.getLong(1)).get(0);
    }

    /** The policy's jobs in flight now by lane ({@code ""}: outside lanes), without the lock. */
    public java.util.Map<String, Long> inFlightByLane(String policy) {
        java.util.Map<String, Long> byLane = new java.util.HashMap<>();
        jdbc.query(IN_FLIGHT_BY_LANE, (c, st) -> st.setString(1, policy), rs -> byLane.put(rs.getString(1), rs.getLong(2)));
        return byLane;
    }
}
