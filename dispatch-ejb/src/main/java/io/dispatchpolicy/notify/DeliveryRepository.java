package io.dispatchpolicy.notify;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The webhook deliveries' rows: claimed by a node for one attempt, then delivered, due again, or failed. */
@ApplicationScoped
public class DeliveryRepository {

    // Due rows of declared webhooks, oldest due first, each leased for one attempt: a node that dies with the attempt
    // out leaves the row due again when the lease ends (any node sends it then: at least once). SKIP LOCKED: two
    // nodes' passes never claim one row.
    private static final Sql CLAIM = Sql.of("""
            UPDATE dispatch.webhook_deliveries d
               SET attempts = d.attempts + 1, next_attempt_at = clock_timestamp() + make_interval(secs => :leaseMs / 1000.0)
              FROM (SELECT id FROM dispatch.webhook_deliveries
                     WHERE state = 'pending' AND next_attempt_at <= clock_timestamp() AND webhook = ANY (CAST(:declared AS text[]))
                     ORDER BY next_attempt_at, id LIMIT :limit FOR UPDATE SKIP LOCKED) due
             WHERE d.id = due.id
            RETURNING d.id, d.webhook, d.event_type, d.event_id, d.payload::text, d.created_at, d.attempts
            """);

    private static final Sql DELIVERED = Sql.of("""
            UPDATE dispatch.webhook_deliveries
               SET state = 'delivered', last_status = :status, last_error = NULL, ended_at = clock_timestamp()
             WHERE id = :id AND state = 'pending'
            """);

    // A failed attempt: due again after :backoffMs, or failed for good when it was the last one.
    private static final Sql FAILED = Sql.of("""
            UPDATE dispatch.webhook_deliveries
               SET state = CASE WHEN :giveUp THEN 'failed' ELSE 'pending' END,
                   next_attempt_at = clock_timestamp() + make_interval(secs => :backoffMs / 1000.0),
                   ended_at = CASE WHEN :giveUp THEN clock_timestamp() END,
                   last_status = :status, last_error = left(:error, 2000)
             WHERE id = :id AND state = 'pending'
            """);

    // Pending rows of a webhook no longer declared: nothing will send them.
    private static final Sql ORPHANED = Sql.of("""
            UPDATE dispatch.webhook_deliveries
               SET state = 'failed', ended_at = clock_timestamp(), last_error = 'webhook ' || webhook || ' is no longer declared'
             WHERE id IN (SELECT id FROM dispatch.webhook_deliveries
                           WHERE state = 'pending' AND NOT webhook = ANY (CAST(:declared AS text[]))
                             AND next_attempt_at < clock_timestamp() - interval '1 minute'
                           LIMIT 1000)
            """);

    private static final Sql SWEEP = Sql.of("""
            DELETE FROM dispatch.webhook_deliveries
             WHERE id IN (SELECT id FROM dispatch.webhook_deliveries
                           WHERE state <> 'pending' AND ended_at < clock_timestamp() - make_interval(secs => :keepMs / 1000.0)
                           LIMIT 1000)
            """);

    private static final Sql SUMMARY = Sql.of("""
            SELECT webhook,
                   count(*) FILTER (WHERE state = 'pending'),
                   count(*) FILTER (WHERE state = 'delivered' AND ended_at > clock_timestamp() - interval '24 hours'),
                   count(*) FILTER (WHERE state = 'failed' AND ended_at > clock_timestamp() - interval '24 hours'),
                   max(ended_at) FILTER (WHERE state = 'delivered'),
                   (array_agg(last_error ORDER BY coalesce(ended_at, next_attempt_at) DESC) FILTER (WHERE last_error IS NOT NULL))[1]
              FROM dispatch.webhook_deliveries
             GROUP BY webhook ORDER BY webhook
            """);

    @Inject
    Jdbc jdbc;

    /** Up to {@code limit} due deliveries of these webhooks, each leased to this node for {@code lease}. */
    public List<Delivery> claim(List<String> declared, int limit, Duration lease) {
        return jdbc.query(CLAIM, Params.of().texts("declared", declared).integer("limit", limit).bigint("leaseMs", lease.toMillis()),
                rs -> new Delivery(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getTimestamp(6).toInstant(), rs.getInt(7)));
    }

    public void delivered(long id, int status) {
        jdbc.update(DELIVERED, Params.of().bigint("id", id).integer("status", status));
    }

    /** @param status the answer's status, or null when none came (refused, timed out) */
    public void failed(long id, Integer status, String error, Duration backoff, boolean giveUp) {
        jdbc.update(FAILED, Params.of().bigint("id", id).integer("status", status).text("error", error)
                .bigint("backoffMs", backoff.toMillis()).bool("giveUp", giveUp));
    }

    /** Ends the pending deliveries of webhooks not among {@code declared}. @return how many */
    public int orphaned(List<String> declared) {
        return jdbc.update(ORPHANED, Params.of().texts("declared", declared));
    }

    /** Deletes up to 1,000 deliveries ended more than {@code keep} ago. @return how many */
    public int sweep(Duration keep) {
        return jdbc.update(SWEEP, Params.of().bigint("keepMs", keep.toMillis()));
    }

    /** Per webhook with rows: pending, delivered and failed in the last 24 hours, the last delivery, the last error. */
    public List<DeliverySummary> summary() {
        return jdbc.query(SUMMARY, Params.of(), rs -> new DeliverySummary(rs.getString(1), rs.getLong(2), rs.getLong(3),
                rs.getLong(4), Jdbc.instant(rs.getTimestamp(5)), rs.getString(6)));
    }

    /** One claimed attempt. */
    public record Delivery(long id, String webhook, String eventType, String eventId, String payload, Instant createdAt, int attempt) {
    }

}
