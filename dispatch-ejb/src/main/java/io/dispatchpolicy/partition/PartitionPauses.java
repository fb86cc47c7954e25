package io.dispatchpolicy.partition;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Optional;

/**
 * A running job's pause of its own partition (ADR 0033): every row of its key — the gate row and its lanes —
 * waits until a time, which the claim and the admission honour on every node.
 */
@ApplicationScoped
public class PartitionPauses {

    // The key of the execution's partition, its rows locked in LOCK_ORDER (as every statement that locks several
    // partition rows: no deadlock with an admission or a staging), then paused until the later of the pause in
    // force and this one. :untilMs null: :waitMs from now on the database's clock.
    private static final Sql PAUSE = Sql.template("""
            WITH job AS (
                SELECT p.policy_name, p.partition_key FROM dispatch.inflight_jobs i
                  JOIN dispatch.partitions p ON p.id = i.partition_id
                 WHERE i.execution_id = :execution),
            rows AS MATERIALIZED (
                SELECT q.id FROM dispatch.partitions q JOIN job ON q.policy_name = job.policy_name AND q.partition_key = job.partition_key
                 ORDER BY {{lockOrder}} FOR UPDATE OF q),
            until AS (
                SELECT coalesce(to_timestamp(:untilMs::bigint / 1000.0),
                                clock_timestamp() + make_interval(secs => :waitMs::bigint / 1000.0)) AS at),
            paused AS (
                UPDATE dispatch.partitions w
                   SET paused_until = greatest(w.paused_until, until.at),
                       pause_reason = CASE WHEN w.paused_until > until.at THEN w.pause_reason ELSE :reason END,
                       paused_by = CASE WHEN w.paused_until > until.at THEN w.paused_by ELSE :execution END
                  FROM rows, until
                 WHERE w.id = rows.id
                RETURNING w.id, w.lane, w.paused_until, w.policy_name, w.partition_key)
            SELECT (SELECT id FROM paused WHERE lane = '' LIMIT 1), max(paused_until), min(policy_name), min(partition_key)
              FROM paused HAVING count(*) > 0
            """).with("lockOrder", PartitionRepository.lockOrder("q."));

    @Inject
    Jdbc jdbc;

    /**
     * Pauses the key of the partition that in-flight execution {@code executionId} was admitted from, until
     * {@code untilMillis} (epoch ms) or, when that is null, for {@code waitMillis} from the database's now.
     *
     * @return the key's gate row, its policy and key, and until when it is paused; empty when the execution is not in flight
     */
    public Optional<Paused> pause(long executionId, Long untilMillis, Long waitMillis, String reason) {
        return jdbc.query(PAUSE, Params.of().bigint("execution", executionId).bigint("untilMs", untilMillis).bigint("waitMs", waitMillis)
                        .text("reason", reason),
                rs -> new Paused(rs.getLong(1), rs.getString(3), rs.getString(4), rs.getTimestamp(2).toInstant())).stream().findFirst();
    }

    /** A key paused by a job: its gate row, its policy and key, until when. */
    public record Paused(long partitionId, String policyName, String partitionKey, Instant until) {
    }
}
