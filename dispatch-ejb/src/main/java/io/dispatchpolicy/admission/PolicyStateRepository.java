package io.dispatchpolicy.admission;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
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
    private static final String SET_PAUSED = """
            WITH policy AS (
                INSERT INTO dispatch.policies (name, paused_at, updated_at)
                VALUES (?, CASE WHEN ? THEN clock_timestamp() END, clock_timestamp())
                ON CONFLICT (name) DO UPDATE
                   SET paused_at = CASE WHEN ? THEN coalesce(dispatch.policies.paused_at, clock_timestamp()) END,
                       updated_at = clock_timestamp())
            , locked AS (
                SELECT id FROM dispatch.partitions WHERE policy_name = ? AND paused <> ?
                 ORDER BY %s FOR UPDATE)
            UPDATE dispatch.partitions p SET paused = ? FROM locked WHERE p.id = locked.id
            """.formatted(PartitionRepository.LOCK_ORDER);

    private static final String PAUSED = """
            SELECT name FROM dispatch.policies WHERE paused_at IS NOT NULL
            """;

    @Inject
    Jdbc jdbc;

    /** @return partitions whose flag changed */
    public int setPaused(String policyName, boolean paused) {
        return jdbc.update(SET_PAUSED, (c, st) -> {
            st.setString(1, policyName);
            st.setBoolean(2, paused);
            st.setBoolean(3, paused);
            st.setString(4, policyName);
            st.setBoolean(5, paused);
            st.setBoolean(6, paused);
        });
    }

    public Set<String> pausedPolicies() {
        return new HashSet<>(jdbc.query(PAUSED, (c, st) -> { }, rs -> rs.getString(1)));
    }
}
