package io.dispatchpolicy.running;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;

/** The item throttle's buckets, one per partition key (ADR 0034), refilled by the database's clock. */
@ApplicationScoped
public class ItemBucketRepository {

    // The policy and key of an in-flight execution: whose bucket it draws from.
    private static final Sql KEY = Sql.of("""
            SELECT p.policy_name, p.partition_key FROM dispatch.inflight_jobs i JOIN dispatch.partitions p ON p.id = i.partition_id
             WHERE i.execution_id = :execution
            """);

    // A bucket is born full.
    private static final Sql CREATE = Sql.of("""
            INSERT INTO dispatch.item_buckets (policy_name, partition_key, tokens, refilled_at)
            VALUES (:policy, :key, :burst, clock_timestamp())
            ON CONFLICT (policy_name, partition_key) DO NOTHING
            """);

    // Refills the bucket to now (at most full) and draws :take when it holds that many; answers the seconds until
    // it would: 0 when drawn. One statement under the row's lock, its own transaction: the lock is held for the
    // statement only, never while a job waits.
    private static final Sql TAKE = Sql.of("""
            WITH b AS (
                SELECT least(:burst, tokens + :rate * extract(epoch FROM clock_timestamp() - refilled_at)) AS available
                  FROM dispatch.item_buckets WHERE policy_name = :policy AND partition_key = :key FOR UPDATE),
            drawn AS (
                UPDATE dispatch.item_buckets u SET tokens = b.available - :take, refilled_at = clock_timestamp()
                  FROM b WHERE u.policy_name = :policy AND u.partition_key = :key AND b.available >= :take
                RETURNING 1)
            SELECT CASE WHEN EXISTS (SELECT 1 FROM drawn) THEN 0 ELSE (:take - b.available) / :rate END FROM b
            """);

    @Inject
    Jdbc jdbc;

    /** The policy and partition key of an in-flight execution. */
    public Optional<String[]> keyOf(long executionId) {
        return jdbc.query(KEY, Params.of().bigint("execution", executionId), rs -> new String[] {rs.getString(1), rs.getString(2)})
                .stream().findFirst();
    }

    /**
     * Draws {@code take} tokens from the key's bucket ({@code ratePerSecond}, full at {@code burst}) if it holds them.
     *
     * @return 0 when drawn; else the seconds until it would hold them
     */
    public double take(String policy, String key, double take, double ratePerSecond, double burst) {
        Params params = Params.of().text("policy", policy).text("key", key).float8("take", take).float8("rate", ratePerSecond)
                .float8("burst", burst);
        jdbc.update(CREATE, Params.of().text("policy", policy).text("key", key).float8("burst", burst));
        return jdbc.query(TAKE, params, rs -> rs.getDouble(1)).get(0);
    }
}
