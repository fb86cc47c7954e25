package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.domain.model.ClaimedPartition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** Claims partitions for a tick iteration and locks one for its admission. */
@ApplicationScoped
public class PartitionRepository {

    // Walks partitions_claim_idx in (last_checked_at NULLS FIRST, id) order and stops at the limit:
    // O(batch) however many partitions or staged jobs exist. Stamping last_checked_at sends the claimed
    // rows to the back of the order, so every partition with work is visited within
    // ceil(N / partition_batch_size) iterations. SKIP LOCKED lets two tick workers claim disjoint sets.
    private static final String CLAIM = """
            UPDATE dispatch.partitions p
               SET last_checked_at = clock_timestamp()
              FROM (SELECT id FROM dispatch.partitions
                     WHERE pending_count > 0
                       AND (next_eligible_at IS NULL OR next_eligible_at <= clock_timestamp())
                     ORDER BY last_checked_at NULLS FIRST, id
                     LIMIT ?
                     FOR UPDATE SKIP LOCKED) claimed
             WHERE p.id = claimed.id
            RETURNING p.id, p.policy_name, p.partition_key, p.pending_count
            """;

    // Held until the admission transaction ends: nobody else admits from, or stages into, this
    // partition meanwhile. A partition another worker holds is skipped, not waited for.
    private static final String LOCK = """
            SELECT pending_count FROM dispatch.partitions WHERE id = ? FOR UPDATE SKIP LOCKED
            """;

    @Inject
    Jdbc jdbc;

    /** Claims up to {@code limit} partitions with pending work, in the anti-stagnation order. */
    public List<ClaimedPartition> claim(int limit) {
        List<ClaimedPartition> claimed = jdbc.query(CLAIM, (c, st) -> st.setInt(1, limit),
                rs -> new ClaimedPartition(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4)));
        // RETURNING order is unspecified: walk the claimed partitions in id order, deterministically.
        return claimed.stream().sorted((a, b) -> Long.compare(a.id(), b.id())).toList();
    }

    /** Locks the partition for this transaction; false when another transaction holds it. */
    public boolean lock(long partitionId) {
        return !jdbc.query(LOCK, (c, st) -> st.setLong(1, partitionId), rs -> rs.getInt(1)).isEmpty();
    }
}
