package io.dispatchpolicy.partition;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.notify.EventType;
import io.dispatchpolicy.notify.Outbox;
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

    // Every row of a key (its gate row and its lanes), from a CTE "key" (policy_name, partition_key), locked in
    // LOCK_ORDER as every statement that locks several partition rows: no deadlock with an admission or a staging.
    private static final String KEY_ROWS = """
            rows AS MATERIALIZED (
                SELECT q.id FROM dispatch.partitions q JOIN key ON q.policy_name = key.policy_name AND q.partition_key = key.partition_key
                 ORDER BY {{lockOrder}} FOR UPDATE OF q)""".replace("{{lockOrder}}", PartitionRepository.lockOrder("q."));
    // The paused rows' answer: the key's gate row, until when, the policy and the key.
    private static final String PAUSED = """
            SELECT (SELECT id FROM paused WHERE lane = '' LIMIT 1), max(paused_until), min(policy_name), min(partition_key)
              FROM paused HAVING count(*) > 0""";

    // The key of the execution's partition, its rows locked in LOCK_ORDER (as every statement that locks several
    // partition rows: no deadlock with an admission or a staging), then paused until the later of the pause in
    // force and this one. :untilMs null: :waitMs from now on the database's clock.
    private static final Sql PAUSE = Sql.template("""
            WITH key AS (
                SELECT p.policy_name, p.partition_key FROM dispatch.inflight_jobs i
                  JOIN dispatch.partitions p ON p.id = i.partition_id
                 WHERE i.execution_id = :execution),
            {{keyRows}},
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
            {{paused}}
            """).with("keyRows", KEY_ROWS).with("paused", PAUSED);

    // An operator's pause of a partition's key (every row of it, as a job's pause): set to the given time, not the
    // later one, so an operator can shorten a pause as well as lengthen it. paused_by null: no execution did it.
    private static final Sql PAUSE_KEY = Sql.template("""
            WITH key AS (SELECT policy_name, partition_key FROM dispatch.partitions WHERE id = :partition),
            {{keyRows}},
            paused AS (
                UPDATE dispatch.partitions w
                   SET paused_until = to_timestamp(:untilMs::bigint / 1000.0), pause_reason = :reason, paused_by = NULL
                  FROM rows WHERE w.id = rows.id
                RETURNING w.id, w.lane, w.paused_until, w.policy_name, w.partition_key)
            {{paused}}
            """).with("keyRows", KEY_ROWS).with("paused", PAUSED);

    // Ends a pause of the partition's key, whoever set it (a job or an operator); the rows it changed.
    private static final Sql RESUME_KEY = Sql.template("""
            WITH key AS (SELECT policy_name, partition_key FROM dispatch.partitions WHERE id = :partition),
            {{keyRows}}
            UPDATE dispatch.partitions w SET paused_until = NULL, pause_reason = NULL, paused_by = NULL
              FROM rows WHERE w.id = rows.id AND w.paused_until > clock_timestamp()
            """).with("keyRows", KEY_ROWS);

    @Inject
    Jdbc jdbc;

    @Inject
    Outbox outbox;

    /**
     * An operator's pause of partition {@code partitionId}'s key (its gate row and its lanes) until {@code until}:
     * nothing of it is admitted before, on any node; jobs in flight run on.
     *
     * @return the key's gate row, policy, key and until when; empty when there is no such partition
     */
    public Optional<Paused> pauseKey(long partitionId, Instant until, String reason) {
        Optional<Paused> paused = jdbc.query(PAUSE_KEY, Params.of().bigint("partition", partitionId).bigint("untilMs", until.toEpochMilli())
                        .text("reason", reason),
                rs -> new Paused(rs.getLong(1), rs.getString(3), rs.getString(4), rs.getTimestamp(2).toInstant())).stream().findFirst();
        paused.ifPresent(p -> told(p, reason, null));
        return paused;
    }

    /** Ends the pause in force on partition {@code partitionId}'s key. @return whether one was in force */
    public boolean resumeKey(long partitionId) {
        return jdbc.update(RESUME_KEY, Params.of().bigint("partition", partitionId)) > 0;
    }

    /**
     * Pauses the key of the partition that in-flight execution {@code executionId} was admitted from, until
     * {@code untilMillis} (epoch ms) or, when that is null, for {@code waitMillis} from the database's now.
     *
     * @return the key's gate row, its policy and key, and until when it is paused; empty when the execution is not in flight
     */
    public Optional<Paused> pause(long executionId, Long untilMillis, Long waitMillis, String reason) {
        Optional<Paused> paused = jdbc.query(PAUSE, Params.of().bigint("execution", executionId).bigint("untilMs", untilMillis)
                        .bigint("waitMs", waitMillis).text("reason", reason),
                rs -> new Paused(rs.getLong(1), rs.getString(3), rs.getString(4), rs.getTimestamp(2).toInstant())).stream().findFirst();
        paused.ifPresent(p -> told(p, reason, executionId));
        return paused;
    }

    /** The webhooks' event of a pause, in the pause's transaction (ADR 0041). */
    private void told(Paused p, String reason, Long executionId) {
        java.util.Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("policy", p.policyName());
        data.put("partitionKey", p.partitionKey());
        data.put("partitionId", p.partitionId());
        data.put("until", p.until().toString());
        data.put("reason", reason);
        data.put("executionId", executionId);
        outbox.record(EventType.PARTITION_PAUSED, "partition.paused:" + p.partitionId() + ":" + p.until().toEpochMilli(), data);
    }

    /** A key paused by a job: its gate row, its policy and key, until when. */
    public record Paused(long partitionId, String policyName, String partitionKey, Instant until) {
    }
}
