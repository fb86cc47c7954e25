package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * A policy's capacity: how many of its jobs are in flight, and the lock under which an admission
 * counts them and adds its own (ADR 0011).
 */
@ApplicationScoped
public class CapacityRepository {

    private static final Sql LOCK = Sql.of("""
            SELECT 1 FROM dispatch.policy_capacity WHERE policy_name = :policy FOR UPDATE
            """);

    private static final Sql CREATE = Sql.of("""
            INSERT INTO dispatch.policy_capacity (policy_name) VALUES (:policy) ON CONFLICT DO NOTHING
            """);

    // Slots, not rows: each in-flight job holds its cost (a timed-out one whose thread has not let go, none).
    private static final Sql IN_FLIGHT = Sql.of("""
            SELECT coalesce(sum(cost), 0) FROM dispatch.inflight_jobs WHERE policy_name = :policy
            """);

    private static final Sql IN_FLIGHT_BY_LANE = Sql.of("""
            SELECT lane, sum(cost) FROM dispatch.inflight_jobs WHERE policy_name = :policy GROUP BY lane
            """);

    @Inject
    Jdbc jdbc;

    /**
     * Takes the policy's capacity lock for the rest of the current transaction, then counts its jobs in
     * flight. The count is a statement of its own, after the lock: in READ COMMITTED its snapshot then
     * includes the rows of every admission that held the lock before (a count in the locking statement
     * would read a snapshot from before the wait).
     */
    public long lockAndCount(String policy) {
        if (jdbc.query(LOCK, Params.of().text("policy", policy), rs -> 1).isEmpty()) {
            jdbc.update(CREATE, Params.of().text("policy", policy));
            jdbc.query(LOCK, Params.of().text("policy", policy), rs -> 1);
        }
        return inFlight(policy);
    }

    /** As {@link #lockAndCount}, counted by lane: for a policy whose lanes lend or borrow within limits (ADR 0047). */
    public java.util.Map<String, Long> lockAndCountByLane(String policy) {
        lockAndCount(policy);
        return inFlightByLane(policy);
    }

    /** The policy's jobs in flight now, without the lock: what the tick plans an iteration with. */
    public long inFlight(String policy) {
        return jdbc.query(IN_FLIGHT, Params.of().text("policy", policy), rs -> rs.getLong(1)).get(0);
    }

    /** The policy's jobs in flight now by lane ({@code ""}: outside lanes), without the lock. */
    public java.util.Map<String, Long> inFlightByLane(String policy) {
        java.util.Map<String, Long> byLane = new java.util.HashMap<>();
        jdbc.query(IN_FLIGHT_BY_LANE, Params.of().text("policy", policy), rs -> byLane.put(rs.getString(1), rs.getLong(2)));
        return byLane;
    }
}
