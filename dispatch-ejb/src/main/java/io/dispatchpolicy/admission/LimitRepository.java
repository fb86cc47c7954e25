package io.dispatchpolicy.admission;

import io.dispatchpolicy.domain.gate.SharedLimits;
import io.dispatchpolicy.domain.gate.TokenBucket;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Named limits' rows (ADR 0049): the lock an admission takes on each limit key its jobs pass, the slots in flight
 * under each key read after it, and the buckets charged in the same transaction.
 */
@ApplicationScoped
public class LimitRepository {

    // A key's row is created on first use. Both statements go in lock order (limit, key, by code point) so that two
    // admissions creating or locking rows of the same keys queue behind each other instead of deadlocking.
    private static final Sql CREATE = Sql.of("""
            INSERT INTO dispatch.limit_state (limit_name, limit_key)
            SELECT n, k FROM unnest(:names::text[], :keys::text[]) AS w(n, k) ORDER BY n COLLATE "C", k COLLATE "C"
            ON CONFLICT DO NOTHING
            """);

    private static final Sql LOCK = Sql.of("""
            SELECT s.limit_name, s.limit_key, s.tokens, s.counted_at
              FROM dispatch.limit_state s JOIN unnest(:names::text[], :keys::text[]) AS w(n, k) ON s.limit_name = w.n AND s.limit_key = w.k
             ORDER BY s.limit_name COLLATE "C", s.limit_key COLLATE "C"
               FOR UPDATE OF s
            """);

    private static final Sql READ = Sql.of("""
            SELECT s.limit_name, s.limit_key, s.tokens, s.counted_at
              FROM dispatch.limit_state s JOIN unnest(:names::text[], :keys::text[]) AS w(n, k) ON s.limit_name = w.n AND s.limit_key = w.k
            """);

    // After the lock, a statement of its own: in READ COMMITTED its snapshot includes every admission that held the
    // lock before (as the capacity's count, CapacityRepository). Off inflight_limit_keys' primary key (V44).
    private static final Sql IN_FLIGHT = Sql.of("""
            SELECT k, (SELECT coalesce(sum(f.cost), 0)
                         FROM dispatch.inflight_limit_keys l JOIN dispatch.inflight_jobs f ON f.execution_id = l.execution_id
                        WHERE l.limit_key = k)
              FROM unnest(:encoded::text[]) AS k
            """);

    private static final Sql CHARGE = Sql.of("""
            UPDATE dispatch.limit_state s SET tokens = c.tokens, counted_at = c.at
              FROM unnest(:names::text[], :keys::text[], :tokens::float8[], :at::bigint[]) AS c(n, k, tokens, at)
             WHERE s.limit_name = c.n AND s.limit_key = c.k
            """);

    @Inject
    Jdbc jdbc;

    /** Locks the keys' rows (created when new) for the rest of the transaction and reads them. */
    public Map<SharedLimits.Key, SharedLimits.Held> lockAndRead(List<SharedLimits.Key> keys) {
        return read(keys, true);
    }

    /**
     * Reads the keys' rows as last committed, without their locks: what a group reserves on before it takes its
     * jobs; it locks them before it records (DefaultAdmissionService#chargeLimits). A key without a row reads as new.
     */
    public Map<SharedLimits.Key, SharedLimits.Held> read(List<SharedLimits.Key> keys) {
        return read(keys, false);
    }

    private Map<SharedLimits.Key, SharedLimits.Held> read(List<SharedLimits.Key> keys, boolean lock) {
        Params names = Params.of().texts("names", keys.stream().map(SharedLimits.Key::limit).toList())
                .texts("keys", keys.stream().map(SharedLimits.Key::key).toList());
        if (lock) {
            jdbc.update(CREATE, names); // a key's row exists before it is locked; read unlocked, a missing one is new
        }
        Map<SharedLimits.Key, TokenBucket.State> buckets = new HashMap<>();
        jdbc.query(lock ? LOCK : READ, names, rs -> {
            double tokens = rs.getDouble(3);
            boolean none = rs.wasNull();
            long at = rs.getLong(4);
            buckets.put(new SharedLimits.Key(rs.getString(1), rs.getString(2)), none ? null : new TokenBucket.State(tokens, at));
            return null;
        });
        Map<String, Long> inFlight = new HashMap<>();
        jdbc.query(IN_FLIGHT, Params.of().texts("encoded", keys.stream().map(SharedLimits.Key::encoded).toList()),
                rs -> inFlight.put(rs.getString(1), rs.getLong(2)));
        Map<SharedLimits.Key, SharedLimits.Held> held = new HashMap<>();
        for (SharedLimits.Key key : keys) {
            held.put(key, new SharedLimits.Held(buckets.get(key), inFlight.getOrDefault(key.encoded(), 0L)));
        }
        return held;
    }

    /** Writes the charged buckets of keys this transaction holds. */
    public void charge(Map<SharedLimits.Key, TokenBucket.State> buckets) {
        if (buckets.isEmpty()) {
            return;
        }
        List<Map.Entry<SharedLimits.Key, TokenBucket.State>> rows = List.copyOf(buckets.entrySet());
        jdbc.update(CHARGE, Params.of().texts("names", rows.stream().map(e -> e.getKey().limit()).toList())
                .texts("keys", rows.stream().map(e -> e.getKey().key()).toList())
                .float8s("tokens", rows.stream().map(e -> e.getValue().tokens()).toList())
                .longs("at", rows.stream().map(e -> e.getValue().atMillis()).toList()));
    }
}
