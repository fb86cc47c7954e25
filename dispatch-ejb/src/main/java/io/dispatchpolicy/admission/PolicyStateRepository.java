package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.partition.PartitionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Pause state of policies, and the paused flag it sets on their partitions. */
@ApplicationScoped
public class PolicyStateRepository {

    // The policy row first: a stager reads it when it creates a partition, so a partition created after
    // this commits is born paused, and one created concurrently is caught by the tick's check.
    private static final Sql SET_PAUSED = Sql.template("""
            WITH policy AS (
                INSERT INTO dispatch.policies (name, paused_at, updated_at)
                VALUES (:policy, CASE WHEN :paused THEN clock_timestamp() END, clock_timestamp())
                ON CONFLICT (name) DO UPDATE
                   SET paused_at = CASE WHEN :paused THEN coalesce(dispatch.policies.paused_at, clock_timestamp()) END,
                       updated_at = clock_timestamp())
            , locked AS (
                SELECT id FROM dispatch.partitions WHERE policy_name = :policy AND paused <> :paused
                 ORDER BY {{lockOrder}} FOR UPDATE)
            UPDATE dispatch.partitions p SET paused = :paused FROM locked WHERE p.id = locked.id
            """).with("lockOrder", PartitionRepository.LOCK_ORDER);

    private static final Sql PAUSED = Sql.of("""
            SELECT name FROM dispatch.policies WHERE paused_at IS NOT NULL
            """);

    // One statement per tick iteration for both: the rows are few (policies someone paused or overrode).
    private static final Sql STATES = Sql.of("""
            SELECT name, paused_at IS NOT NULL, lane_overrides::text FROM dispatch.policies
             WHERE paused_at IS NOT NULL OR lane_overrides IS NOT NULL
            """);

    private static final Sql LANE_OVERRIDES = Sql.of("""
            SELECT lane_overrides::text FROM dispatch.policies WHERE name = :policy
            """);

    // The policy's row is created when missing (as a pause does), locked, and its overrides replaced.
    private static final Sql LOCK_LANE_OVERRIDES = Sql.of("""
            INSERT INTO dispatch.policies AS p (name, updated_at) VALUES (:policy, clock_timestamp())
            ON CONFLICT (name) DO UPDATE SET updated_at = p.updated_at
            RETURNING lane_overrides::text
            """);

    private static final Sql SET_LANE_OVERRIDES = Sql.of("""
            UPDATE dispatch.policies SET lane_overrides = :overrides::jsonb, updated_at = clock_timestamp() WHERE name = :policy
            """);

    @Inject
    Jdbc jdbc;

    public PolicyStates states() {
        Set<String> paused = new HashSet<>();
        Map<String, String> lanes = new HashMap<>();
        jdbc.query(STATES, Params.of(), rs -> {
            if (rs.getBoolean(2)) {
                paused.add(rs.getString(1));
            }
            if (rs.getString(3) != null) {
                lanes.put(rs.getString(1), rs.getString(3));
            }
            return null;
        });
        return new PolicyStates(paused, lanes);
    }

    /** The policy's lane overrides as stored (null: none). */
    public String laneOverrides(String policyName) {
        // a row whose column is null reads as null: not through Optional
        java.util.List<String> rows = jdbc.query(LANE_OVERRIDES, Params.of().text("policy", policyName), rs -> rs.getString(1));
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Locks the policy's row for this transaction (creating it) and returns its lane overrides (null: none). */
    public String lockLaneOverrides(String policyName) {
        // a row whose column is null reads as null: not through Optional
        java.util.List<String> rows = jdbc.query(LOCK_LANE_OVERRIDES, Params.of().text("policy", policyName), rs -> rs.getString(1));
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Replaces the policy's lane overrides (null: none); its row is locked by {@link #lockLaneOverrides}. */
    public void setLaneOverrides(String policyName, String json) {
        jdbc.update(SET_LANE_OVERRIDES, Params.of().text("policy", policyName).text("overrides", json));
    }

    /** @return partitions whose flag changed */
    public int setPaused(String policyName, boolean paused) {
        return jdbc.update(SET_PAUSED, Params.of().text("policy", policyName).bool("paused", paused));
    }

    public Set<String> pausedPolicies() {
        return new HashSet<>(jdbc.query(PAUSED, Params.of(), rs -> rs.getString(1)));
    }
}
