package io.dispatchpolicy.tick;

import io.dispatchpolicy.domain.model.ClaimedPartition;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/**
 * The tick's claim of partitions with waiting work: outside lanes, one lane of a policy, each either
 * over every shard or one shard, all four the same walk of an index in the same order.
 */
@ApplicationScoped
public class Claims {

    // Walks partitions_claim_idx in (top_priority DESC, last_checked_at NULLS FIRST, id) order and stops at
    // the limit: O(batch) however many partitions or staged jobs exist. A partition's highest waiting
    // priority comes first (strict, ADR 0009); among equals, stamping last_checked_at sends the claimed
    // rows to the back of the order, so every partition of a priority is visited within
    // ceil(N / partition_batch_size) iterations. SKIP LOCKED lets two tick workers claim disjoint sets. A
    // partition a job paused (ADR 0033) is passed over until its time, like one backed off.
    private static final Sql CLAIM_TEMPLATE = Sql.template("""
            WITH claimed AS MATERIALIZED (
                SELECT id, last_checked_at AS previous FROM dispatch.partitions
                 WHERE pending_count > 0 AND NOT paused AND {{rows}}
                   AND (next_eligible_at IS NULL OR next_eligible_at <= clock_timestamp())
                   AND (paused_until IS NULL OR paused_until <= clock_timestamp())
                 ORDER BY top_priority DESC, last_checked_at NULLS FIRST, id
                 LIMIT :limit
                 FOR UPDATE SKIP LOCKED)
            UPDATE dispatch.partitions p
               SET last_checked_at = clock_timestamp()
              FROM claimed
             WHERE p.id = claimed.id
            RETURNING p.id, p.policy_name, p.partition_key, p.pending_count, p.decayed_admits,
                      p.decayed_admits_at, claimed.previous, p.top_priority, p.lane, p.decayed_usage, p.usage_at,
                      -- fairness by usage (ADR 0048): what its jobs in flight have run so far — each at least what its
                      -- partition's jobs run on average (decayed slot-seconds per decayed admission), so a job just
                      -- admitted counts what it commits, not nothing — decayed as the stored usage is; only for
                      -- partitions of policies that count it (usage_at set), one index probe each
                      CASE WHEN p.usage_at IS NULL THEN 0 ELSE (
                          SELECT coalesce(sum(f.cost * f.usage_half_life / ln(2)
                                  * (1 - exp(-ln(2) * greatest(coalesce(extract(epoch FROM clock_timestamp() - f.started_at), 0),
                                                               CASE WHEN p.decayed_admits > 0
                                                                    THEN p.decayed_usage / p.decayed_admits / f.cost ELSE 0 END)
                                             / f.usage_half_life))), 0)
                            FROM dispatch.inflight_jobs f
                           WHERE f.partition_id = p.id AND f.usage_half_life IS NOT NULL AND f.cost > 0) END
            """);

    // Rows outside lanes, off partitions_claim_idx.
    private static final Sql CLAIM = CLAIM_TEMPLATE.with("rows", "lane = ''");

    // One lane of one policy, off partitions_lane_claim_idx (policy_name, lane, then the same order): each
    // lane is claimed on its own, so a lane with few partitions is never crowded out by one with many.
    private static final Sql CLAIM_LANE = CLAIM_TEMPLATE.with("rows", "lane <> '' AND policy_name = :policy AND lane = :lane");

    // A node that admits named shards claims each of them, and the unsharded rows, on its own walk of
    // partitions_shard_claim_idx / partitions_shard_lane_claim_idx (shard, then the same order): O(batch)
    // per shard, however many partitions other shards hold (ADR 0014).
    private static final Sql CLAIM_SHARD = CLAIM_TEMPLATE.with("rows", "lane = '' AND shard = :shard");
    private static final Sql CLAIM_LANE_SHARD = CLAIM_TEMPLATE.with("rows",
            "lane <> '' AND policy_name = :policy AND lane = :lane AND shard = :shard");

    /** The claims as they run, for tests that assert their plans (parameters: the limit; policy, lane, limit). */
    public static final String CLAIM_SQL = CLAIM.jdbc();
    public static final String CLAIM_LANE_SQL = CLAIM_LANE.jdbc();
    public static final String CLAIM_SHARD_SQL = CLAIM_SHARD.jdbc();
    public static final String CLAIM_LANE_SHARD_SQL = CLAIM_LANE_SHARD.jdbc();

    @Inject
    Jdbc jdbc;

    /** Claims up to {@code limit} partitions outside lanes with pending work, in the anti-stagnation order. */
    public List<ClaimedPartition> claim(int limit) {
        return jdbc.query(CLAIM, Params.of().integer("limit", limit), Claims::claimed);
    }

    /** Claims up to {@code limit} partitions outside lanes of one shard ({@code ""}: unsharded policies'). */
    public List<ClaimedPartition> claimShard(String shard, int limit) {
        return jdbc.query(CLAIM_SHARD, Params.of().text("shard", shard).integer("limit", limit), Claims::claimed);
    }

    /** Claims up to {@code limit} partitions of one lane of a policy in one shard. */
    public List<ClaimedPartition> claimLaneShard(String policyName, String lane, String shard, int limit) {
        return jdbc.query(CLAIM_LANE_SHARD, Params.of().text("policy", policyName).text("lane", lane).text("shard", shard)
                .integer("limit", limit), Claims::claimed);
    }

    /** Claims up to {@code limit} partitions of one lane of a policy, in the same order. */
    public List<ClaimedPartition> claimLane(String policyName, String lane, int limit) {
        return jdbc.query(CLAIM_LANE, Params.of().text("policy", policyName).text("lane", lane).integer("limit", limit),
                Claims::claimed);
    }

    private static ClaimedPartition claimed(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ClaimedPartition(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getDouble(5),
                Jdbc.millis(rs.getTimestamp(6)), Jdbc.millis(rs.getTimestamp(7)), rs.getInt(8), rs.getString(9),
                new ClaimedPartition.Usage(rs.getDouble(10), Jdbc.millis(rs.getTimestamp(11)), rs.getDouble(12)));
    }
}
