package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.domain.model.Denial;
import io.dispatchpolicy.domain.model.LockedPartition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;

/** Claims partitions for a tick iteration, locks one for its admission, and writes deny state back. */
@ApplicationScoped
public class PartitionRepository {

    /**
     * The one order in which any statement that locks several partition rows takes their locks: the
     * order staging's UPSERT inserts them in (keys sorted by code point, which is what the "C" collation
     * compares). Two such statements then never wait on each other in a cycle, whatever plan the
     * database picks and whatever its default collation.
     */
    static final String LOCK_ORDER = "policy_name COLLATE \"C\", partition_key COLLATE \"C\"";

    // Walks partitions_claim_idx in (top_priority DESC, last_checked_at NULLS FIRST, id) order and stops at
    // the limit: O(batch) however many partitions or staged jobs exist. A partition's highest waiting
    // priority comes first (strict, ADR 0009); among equals, stamping last_checked_at sends the claimed
    // rows to the back of the order, so every partition of a priority is visited within
    // ceil(N / partition_batch_size) iterations. SKIP LOCKED lets two tick workers claim disjoint sets.
    private static final String CLAIM = """
            WITH claimed AS MATERIALIZED (
                SELECT id, last_checked_at AS previous FROM dispatch.partitions
                 WHERE pending_count > 0 AND NOT paused
                   AND (next_eligible_at IS NULL OR next_eligible_at <= clock_timestamp())
                 ORDER BY top_priority DESC, last_checked_at NULLS FIRST, id
                 LIMIT ?
                 FOR UPDATE SKIP LOCKED)
            UPDATE dispatch.partitions p
               SET last_checked_at = clock_timestamp()
              FROM claimed
             WHERE p.id = claimed.id
            RETURNING p.id, p.policy_name, p.partition_key, p.pending_count, p.decayed_admits,
                      p.decayed_admits_at, claimed.previous, p.top_priority
            """;

    // Held until the admission transaction ends: nobody else admits from, or stages into, this
    // partition meanwhile, so the in-flight count read under it cannot be raced past the cap.
    // A partition another worker holds is skipped, not waited for.
    private static final String LOCK = """
            SELECT policy_name, partition_key, pending_count, context::text, gate_state::text, decayed_admits,
                   decayed_admits_at, paused, clock_timestamp()
              FROM dispatch.partitions WHERE id = ? FOR UPDATE
            """;

    // Every denied partition of an iteration in one statement. A budget-starved partition gets its
    // previous last_checked_at back, so it heads the next claim.
    private static final String DENY = """
            WITH d AS (
                SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[]) AS d(id, reason, retry_ms, restore_ms)),
            locked AS (
                SELECT q.id FROM dispatch.partitions q WHERE q.id IN (SELECT id FROM d) ORDER BY %s FOR UPDATE)
            UPDATE dispatch.partitions p
               SET next_eligible_at = CASE WHEN d.retry_ms > 0
                                           THEN clock_timestamp() + make_interval(secs => d.retry_ms / 1000.0) END,
                   last_deny_reason = d.reason,
                   last_denied_at = clock_timestamp(),
                   last_checked_at = CASE WHEN d.restore_ms > 0 THEN to_timestamp(d.restore_ms / 1000.0)
                                          WHEN d.restore_ms < 0 THEN NULL
                                          ELSE p.last_checked_at END
              FROM d JOIN locked ON locked.id = d.id
             WHERE p.id = d.id
            """.formatted(LOCK_ORDER);

    private static final String MARK_PAUSED = """
            WITH locked AS (
                SELECT id FROM dispatch.partitions WHERE id = ANY(?::bigint[]) ORDER BY %s FOR UPDATE)
            UPDATE dispatch.partitions p SET paused = true FROM locked WHERE p.id = locked.id
            """.formatted(LOCK_ORDER);

    private static final String PENDING = """
            SELECT coalesce(sum(pending_count), 0) FROM dispatch.partitions WHERE pending_count > 0
            """;

    /** The claim as it runs (one parameter: the limit), for tests that assert its plan. */
    public static final String CLAIM_SQL = CLAIM;

    @Inject
    Jdbc jdbc;

    /** Claims up to {@code limit} partitions with pending work, in the anti-stagnation order. */
    public List<ClaimedPartition> claim(int limit) {
        return jdbc.query(CLAIM, (c, st) -> st.setInt(1, limit), rs -> new ClaimedPartition(
                rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getDouble(5),
                millis(rs.getTimestamp(6)), millis(rs.getTimestamp(7)), rs.getInt(8)));
    }

    /** Locks the partition for this transaction; empty when another transaction holds it (or it is gone). */
    public Optional<LockedPartition> lock(long partitionId) {
        return lock(LOCK + " SKIP LOCKED", partitionId);
    }

    /** Locks the partition for this transaction, waiting for any other holder: for operator actions. */
    public Optional<LockedPartition> lockWaiting(long partitionId) {
        return lock(LOCK, partitionId);
    }

    private Optional<LockedPartition> lock(String sql, long partitionId) {
        return jdbc.query(sql, (c, st) -> st.setLong(1, partitionId), rs -> new LockedPartition(
                rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4), rs.getString(5), rs.getDouble(6),
                millis(rs.getTimestamp(7)), rs.getBoolean(8), millis(rs.getTimestamp(9)))).stream().findFirst();
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
        jdbc.update(DENY, (c, st) -> {
            st.setArray(1, Jdbc.longs(c, ids));
            st.setArray(2, Jdbc.texts(c, reasons));
            st.setArray(3, Jdbc.longs(c, retry));
            st.setArray(4, Jdbc.longs(c, restore));
        });
    }

    /** Flags partitions of a paused policy that were created as it was being paused. */
    public void markPaused(List<Long> partitionIds) {
        if (!partitionIds.isEmpty()) {
            jdbc.update(MARK_PAUSED, (c, st) -> st.setArray(1, Jdbc.longs(c, partitionIds)));
        }
    }

    /** Staged jobs waiting, over all partitions. */
    public long pendingTotal() {
        return jdbc.query(PENDING, (c, st) -> { }, rs -> rs.getLong(1)).get(0);
    }

    static long millis(Timestamp t) {
        return t == null ? 0 : t.getTime();
    }
}
