package io.dispatchpolicy.partition;

import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.LockedPartition;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The partition rows as every role locks them: one for its admission (with its key's gate row), several
 * together, a schedule's before its own row; and their lock order, the one order any statement that locks
 * several of them takes ({@link #LOCK_ORDER}). Also the tick's deny state written back, and a retry's
 * row in another lane. Claiming partitions for a tick is the tick's ({@code tick.Claims}).
 */
@ApplicationScoped
public class PartitionRepository {

    /**
     * The one order in which any statement that locks several partition rows takes their locks: the
     * order staging's UPSERT inserts them in (keys, then lanes, sorted by code point, which is what the
     * "C" collation compares; a key's gate row, lane '', comes first). Two such statements then never
     * wait on each other in a cycle, whatever plan the database picks and whatever its default collation.
     */
    public static final String LOCK_ORDER = lockOrder("");

    /** {@link #LOCK_ORDER} over the partition rows of {@code alias} (e.g. {@code "p."}). */
    public static String lockOrder(String alias) {
        return alias + "policy_name COLLATE \"C\", " + alias + "partition_key COLLATE \"C\", " + alias + "lane COLLATE \"C\"";
    }

    // Held until the admission transaction ends: nobody else admits from, or stages into, this
    // partition meanwhile, so the in-flight count read under it cannot be raced past the cap.
    // A lane row is locked with its key's gate row (lane ''), gate row first (LOCK_ORDER): the gates are
    // per key, so admissions from two lanes of one key pass them one at a time.
    private static final Sql LOCK_TEMPLATE = Sql.template("""
            WITH target AS (SELECT policy_name, partition_key, lane FROM dispatch.partitions WHERE id = :partition)
            SELECT p.id, p.lane, p.policy_name, p.partition_key, p.pending_count, p.context::text, p.gate_state::text,
                   p.decayed_admits, p.decayed_admits_at, p.paused OR coalesce(p.paused_until > clock_timestamp(), false),
                   clock_timestamp(), p.overrides::text
              FROM dispatch.partitions p JOIN target t
                ON p.policy_name = t.policy_name AND p.partition_key = t.partition_key AND (p.lane = t.lane OR p.lane = '')
             ORDER BY {{lockOrder}}
               FOR UPDATE OF p {{wait}}
            """).with("lockOrder", lockOrder("p."));
    private static final Sql LOCK = LOCK_TEMPLATE.with("wait", "SKIP LOCKED");
    private static final Sql LOCK_WAITING = LOCK_TEMPLATE.with("wait", "");

    // A schedule's partitions before its row (ADR 0012): the one its live future waits in (by id; null when
    // none) and the one it stages into (by key and lane; a row not created yet is nobody's to hold), each with
    // its key's gate row, in LOCK_ORDER; joined as LOCK joins its one target (a gate row two targets share
    // comes twice, and the second lock of a row this transaction holds is a no-op).
    private static final Sql LOCK_FOR_SCHEDULE = Sql.template("""
            WITH target AS (
                SELECT policy_name, partition_key, lane FROM dispatch.partitions WHERE id = :livePartition
                UNION
                SELECT :policy::text, :key::text, :lane::text)
            SELECT p.id FROM dispatch.partitions p JOIN target t
                ON p.policy_name = t.policy_name AND p.partition_key = t.partition_key AND (p.lane = t.lane OR p.lane = '')
             ORDER BY {{lockOrder}}
               FOR UPDATE OF p
            """).with("lockOrder", lockOrder("p."));

    // Several partitions outside lanes (each its own gate row), in one statement, for an admission of them
    // together. SKIP LOCKED: a row another transaction holds is left out, so this never waits.
    private static final Sql LOCK_TOGETHER = Sql.template("""
            SELECT p.id, p.lane, p.policy_name, p.partition_key, p.pending_count, p.context::text, p.gate_state::text,
                   p.decayed_admits, p.decayed_admits_at, p.paused OR coalesce(p.paused_until > clock_timestamp(), false),
                   clock_timestamp(), p.overrides::text
              FROM dispatch.partitions p
             WHERE p.id = ANY(:partitions) AND p.lane = ''
             ORDER BY {{lockOrder}}
               FOR UPDATE OF p SKIP LOCKED
            """).with("lockOrder", lockOrder("p."));

    // Every denied partition of an iteration in one statement. A budget-starved partition gets its
    // previous last_checked_at back, so it heads the next claim. Its denial history: the current episode
    // counts one more denial when the reason is the same, else a new episode starts (V19).
    private static final Sql DENY = Sql.template("""
            WITH d AS (
                SELECT * FROM unnest(:partitions::bigint[], :reasons::text[], :retryMs::bigint[], :restoreMs::bigint[])
                       AS d(id, reason, retry_ms, restore_ms)),
            locked AS MATERIALIZED (
                SELECT l.id, l.policy_name, l.partition_key, h.id AS episode, h.reason AS episode_reason
                  FROM (SELECT q.id, q.policy_name, q.partition_key, q.denial_history_id FROM dispatch.partitions q
                         WHERE q.id IN (SELECT id FROM d) ORDER BY {{lockOrder}} FOR UPDATE) l
                  LEFT JOIN dispatch.denial_history h ON h.id = l.denial_history_id),
            continued AS (
                UPDATE dispatch.denial_history h SET last_at = clock_timestamp(), denials = h.denials + 1
                  FROM locked JOIN d ON d.id = locked.id
                 WHERE h.id = locked.episode AND locked.episode_reason = d.reason),
            started AS (
                INSERT INTO dispatch.denial_history (partition_id, policy_name, partition_key, reason, started_at, last_at, denials)
                SELECT locked.id, locked.policy_name, locked.partition_key, d.reason, clock_timestamp(), clock_timestamp(), 1
                  FROM locked JOIN d ON d.id = locked.id
                 WHERE locked.episode_reason IS DISTINCT FROM d.reason
                RETURNING id, partition_id)
            UPDATE dispatch.partitions p
               SET next_eligible_at = CASE WHEN d.retry_ms > 0
                                           THEN clock_timestamp() + make_interval(secs => d.retry_ms / 1000.0) END,
                   denial_history_id = coalesce((SELECT s.id FROM started s WHERE s.partition_id = p.id), p.denial_history_id),
                   last_deny_reason = d.reason,
                   last_denied_at = clock_timestamp(),
                   last_checked_at = CASE WHEN d.restore_ms > 0 THEN to_timestamp(d.restore_ms / 1000.0)
                                          WHEN d.restore_ms < 0 THEN NULL
                                          ELSE p.last_checked_at END
              FROM d JOIN locked ON locked.id = d.id
             WHERE p.id = d.id
            """).with("lockOrder", LOCK_ORDER);

    private static final Sql MARK_PAUSED = Sql.template("""
            WITH locked AS (
                SELECT id FROM dispatch.partitions WHERE id = ANY(:partitions::bigint[]) ORDER BY {{lockOrder}} FOR UPDATE)
            UPDATE dispatch.partitions p SET paused = true FROM locked WHERE p.id = locked.id
            """).with("lockOrder", LOCK_ORDER);

    // The row of another lane of a partition's key (created when missing, like staging would, with the
    // key's context and pause state), for a retry its policy sends to that lane.
    private static final Sql LANE_ROW = Sql.of("""
            INSERT INTO dispatch.partitions AS p (policy_name, partition_key, lane, context, paused, shard)
            SELECT policy_name, partition_key, :lane, context, paused, shard FROM dispatch.partitions WHERE id = :partition
            ON CONFLICT (policy_name, partition_key, lane) DO UPDATE SET lane = p.lane
            RETURNING id
            """);

    // An operator's gate overrides for a key, on its gate row (V28, ADR 0025); the key's rows waiting out a
    // backoff are looked at again at once, so a raised cap applies within one tick. The caller holds the gate row.
    private static final Sql OVERRIDES_OF = Sql.of("""
            SELECT g.overrides::text FROM dispatch.partitions p
              JOIN dispatch.partitions g ON g.policy_name = p.policy_name AND g.partition_key = p.partition_key AND g.lane = ''
             WHERE p.id = :partition
            """);
    private static final Sql SET_OVERRIDES = Sql.of("""
            UPDATE dispatch.partitions SET overrides = :overrides::jsonb WHERE id = :gate
            """);
    // (a second statement: one statement must not update the gate row twice)
    private static final Sql LOOK_AGAIN = Sql.template("""
            WITH waiting AS (
                SELECT q.id FROM dispatch.partitions q JOIN dispatch.partitions g
                    ON q.policy_name = g.policy_name AND q.partition_key = g.partition_key
                 WHERE g.id = :gate AND q.next_eligible_at IS NOT NULL
                 ORDER BY {{lockOrder}} FOR UPDATE OF q)
            UPDATE dispatch.partitions p SET next_eligible_at = NULL FROM waiting WHERE p.id = waiting.id
            """).with("lockOrder", lockOrder("q."));

    private static final Sql PENDING = Sql.of("""
            SELECT coalesce(sum(pending_count), 0) FROM dispatch.partitions WHERE pending_count > 0
            """);

    @Inject
    Jdbc jdbc;

    /**
     * Locks the partition, and its key's gate row, for this transaction; empty when another transaction
     * holds either (or it is gone).
     */
    public Optional<LockedPartition> lock(long partitionId) {
        return lock(LOCK, partitionId);
    }

    /** As {@link #lock}, waiting for any other holder: for operator actions. */
    public Optional<LockedPartition> lockWaiting(long partitionId) {
        return lock(LOCK_WAITING, partitionId);
    }

    /**
     * Locks, waiting for any holder, the partitions a schedule's action touches, before the action locks the
     * schedule's row: the partition of its live future ({@code livePartitionId}, null for none) and the one
     * named by {@code policy}, {@code key} and {@code lane} (all null for none), each with its gate row.
     *
     * @return the ids locked
     */
    public List<Long> lockForSchedule(Long livePartitionId, String policy, String key, String lane) {
        return jdbc.query(LOCK_FOR_SCHEDULE, Params.of().bigint("livePartition", livePartitionId).text("policy", policy)
                .text("key", key).text("lane", lane), rs -> rs.getLong(1));
    }

    private record Row(long id, String lane, String policyName, String partitionKey, int pending, String contextJson,
                       String gateStateJson, double decayedAdmits, long decayedAtMillis, boolean paused, long nowMillis,
                       String overridesJson) {
    }

    private Optional<LockedPartition> lock(Sql sql, long partitionId) {
        List<Row> rows = jdbc.query(sql, Params.of().bigint("partition", partitionId), PartitionRepository::row);
        Optional<Row> own = rows.stream().filter(r -> r.id() == partitionId).findFirst();
        Optional<Row> gate = rows.stream().filter(r -> r.lane().isEmpty()).findFirst();
        if (own.isEmpty() || gate.isEmpty()) {
            return Optional.empty(); // gone, or (SKIP LOCKED) one of the two is another transaction's now
        }
        return Optional.of(locked(own.get(), gate.get()));
    }

    /**
     * Locks partitions outside lanes together, skipping any another transaction holds.
     *
     * @return the locked ones by id; a partition missing was gone, held elsewhere, or in a lane
     */
    public Map<Long, LockedPartition> lockTogether(List<Long> partitionIds) {
        Map<Long, LockedPartition> locked = new HashMap<>();
        jdbc.query(LOCK_TOGETHER, Params.of().longs("partitions", partitionIds), PartitionRepository::row)
                .forEach(r -> locked.put(r.id(), locked(r, r)));
        return locked;
    }

    private static Row row(ResultSet rs) throws SQLException {
        return new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5), rs.getString(6),
                rs.getString(7), rs.getDouble(8), Jdbc.millis(rs.getTimestamp(9)), rs.getBoolean(10), Jdbc.millis(rs.getTimestamp(11)),
                rs.getString(12));
    }

    /** A partition row as locked, with the gate row its gates read (itself outside lanes). */
    private static LockedPartition locked(Row p, Row g) {
        return new LockedPartition(p.policyName(), p.partitionKey(), p.lane(), g.id(), p.pending(),
                g.contextJson(), g.gateStateJson(), p.decayedAdmits(), p.decayedAtMillis(), p.paused(), p.nowMillis(),
                g.overridesJson());
    }

    /** The gate overrides of the partition's key (its gate row's), null when none. */
    public String overridesOf(long partitionId) {
        // a row whose column is null reads as null: not through Optional
        java.util.List<String> rows = jdbc.query(OVERRIDES_OF, Params.of().bigint("partition", partitionId), rs -> rs.getString(1));
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Replaces the gate overrides of the key whose gate row is {@code gateId} (locked by the caller); null: none. */
    public void setOverrides(long gateId, String json) {
        jdbc.update(SET_OVERRIDES, Params.of().bigint("gate", gateId).text("overrides", json));
        jdbc.update(LOOK_AGAIN, Params.of().bigint("gate", gateId));
    }

    public void deny(List<Denial> denials) {
        if (denials.isEmpty()) {
            return;
        }
        List<Long> ids = denials.stream().map(Denial::partitionId).toList();
        List<String> reasons = denials.stream().map(Denial::reason).toList();
        List<Long> retry = denials.stream().map(d -> d.retryAfter().toMillis()).toList();
        // 0 keeps last_checked_at, > 0 restores that instant, < 0 restores "never checked"
        List<Long> restore = denials.stream().map(d -> d.restoreCheckedAtMillis()).toList();
        jdbc.update(DENY, Params.of().longs("partitions", ids).texts("reasons", reasons).longs("retryMs", retry)
                .longs("restoreMs", restore));
    }

    /** Flags partitions of a paused policy that were created as it was being paused. */
    public void markPaused(List<Long> partitionIds) {
        if (!partitionIds.isEmpty()) {
            jdbc.update(MARK_PAUSED, Params.of().longs("partitions", partitionIds));
        }
    }

    /**
     * The id of the row of lane {@code lane} of partition {@code partitionId}'s key: the partition itself
     * when it is in that lane already; empty when the partition is gone.
     */
    public Optional<Long> laneRow(long partitionId, String lane) {
        // one statement for both cases: a partition already in that lane conflicts with itself
        return jdbc.query(LANE_ROW, Params.of().text("lane", lane).bigint("partition", partitionId), rs -> rs.getLong(1))
                .stream().findFirst();
    }

    /** Staged jobs waiting, over all partitions. */
    public long pendingTotal() {
        return jdbc.query(PENDING, Params.of(), rs -> rs.getLong(1)).get(0);
    }
}
