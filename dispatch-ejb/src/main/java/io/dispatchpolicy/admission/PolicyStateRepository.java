package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.partition.PartitionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashSet;
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

    @Inject
    Jdbc jdbc;

    /** @return partitions whose flag changed */
    public int setPaused(String policyName, boolean paused) {
        return jdbc.update(SET_PAUSED, Params.of().text("policy", policyName).bool("paused", paused));
    }

    public Set<String> pausedPolicies() {
        return new HashSet<>(jdbc.query(PAUSED, Params.of(), rs -> rs.getString(1)));
    }
}
