package io.dispatchpolicy.follow;

import io.dispatchpolicy.api.GroupStatus;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;

/** The rows of {@code dispatch.job_groups} (ADR 0052): created with their members, counted as each ends, read for progress. */
@ApplicationScoped
public class GroupRepository {

    private static final Sql CREATE = Sql.of("""
            INSERT INTO dispatch.job_groups (name, created_by) VALUES (:name, :user) RETURNING id
            """);

    private static final Sql SET_TOTAL = Sql.of("UPDATE dispatch.job_groups SET total = :total, ended_at = CASE WHEN :total = 0 "
            + "THEN clock_timestamp() END WHERE id = :group");

    // One member's last end counted, under the group row's lock: the transaction whose count reaches the total is the
    // one that sees the group end (it was not ended before, it is now), so exactly one transaction fires its callbacks.
    private static final Sql COUNT = Sql.of("""
            WITH before AS (SELECT id, ended_at FROM dispatch.job_groups WHERE id = :group FOR UPDATE)
            UPDATE dispatch.job_groups g
               SET completed = g.completed + :completed, failed = g.failed + :failed, stopped = g.stopped + :stopped,
                   discarded = g.discarded + :discarded,
                   ended_at = CASE WHEN g.completed + g.failed + g.stopped + g.discarded + :completed + :failed + :stopped + :discarded
                                        >= g.total THEN coalesce(g.ended_at, clock_timestamp()) END
              FROM before
             WHERE g.id = before.id
            RETURNING before.ended_at IS NULL AND g.ended_at IS NOT NULL, g.cancelled_at IS NOT NULL, g.name, g.completed, g.failed,
                      g.stopped, g.discarded, g.total
            """);

    private static final Sql CANCEL = Sql.of("""
            UPDATE dispatch.job_groups SET cancelled_at = clock_timestamp(), cancelled_by = :user
             WHERE id = :group AND cancelled_at IS NULL
            """);

    private static final Sql EXISTS = Sql.of("SELECT cancelled_at IS NOT NULL FROM dispatch.job_groups WHERE id = :group");

    // The group's waiting members still staged: what a cancel discards.
    private static final Sql STAGED_MEMBERS = Sql.of("""
            SELECT f.after_submission FROM dispatch.followers f JOIN dispatch.staged_jobs s ON s.id = f.after_submission
             WHERE f.group_id = :group AND f.kind = 'group' AND f.state = 'waiting'
             ORDER BY f.after_submission
            """);

    // Members taken out before they ran (a cancel, a deadline, a bulk or single discard, a backlog's overflow): waiting, yet
    // neither staged nor in flight — every path that moves a job between those two (admission, retry, recovery) does it in one
    // transaction, so a member seen in neither is gone without an end. Each is counted once as discarded, its follower
    // decided; per group, how many (of the group given, or of any group when :group is null).
    private static final Sql DISCARDED_MEMBERS = Sql.of("""
            WITH gone AS (
                UPDATE dispatch.followers f SET state = 'counted', decided_at = clock_timestamp(), detail = 'DISCARDED'
                 WHERE f.kind = 'group' AND f.state = 'waiting' AND (CAST(:group AS bigint) IS NULL OR f.group_id = :group)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = f.after_submission)
                   AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.submission_id = f.after_submission)
                RETURNING f.group_id)
            SELECT group_id, count(*)::int FROM gone GROUP BY group_id ORDER BY group_id
            """);

    private static final Sql STATUS = Sql.of("""
            SELECT g.id, g.name, g.total,
                   (SELECT count(*) FROM dispatch.followers f JOIN dispatch.staged_jobs s ON s.id = f.after_submission
                     WHERE f.group_id = g.id AND f.kind = 'group' AND f.state = 'waiting')::int,
                   (SELECT count(*) FROM dispatch.followers f JOIN dispatch.inflight_jobs i ON i.submission_id = f.after_submission
                     WHERE f.group_id = g.id AND f.kind = 'group' AND f.state = 'waiting' AND i.ended_at IS NULL)::int,
                   g.completed, g.failed,
                   (SELECT count(*) FROM dispatch.followers f JOIN dispatch.dead_jobs d ON d.submission_id = f.after_submission
                     WHERE f.group_id = g.id AND f.kind = 'group')::int,
                   g.stopped, g.discarded, g.created_at, g.cancelled_at, g.ended_at,
                   ARRAY(SELECT CASE f.on_end WHEN 'success' THEN 'all-succeeded' ELSE 'all-ended' END || ' ' || f.job_name || ': '
                                || f.state || coalesce(' ' || f.submission_id, '') || coalesce(' (' || f.detail || ')', '')
                           FROM dispatch.followers f WHERE f.group_id = g.id AND f.kind = 'callback' ORDER BY f.id)
              FROM dispatch.job_groups g WHERE g.id = :group
            """);

    private static final Sql PRUNE = Sql.of("""
            DELETE FROM dispatch.job_groups WHERE id IN (
                SELECT id FROM dispatch.job_groups WHERE ended_at < clock_timestamp() - make_interval(secs => :seconds)
                 ORDER BY ended_at LIMIT :limit)
            """);

    @Inject
    Jdbc jdbc;

    /** A member's end as counted: whether it ended the group (and the group was not cancelled), with the counts. */
    public record Counted(boolean endedNow, boolean cancelled, String name, int completed, int failed, int stopped, int discarded,
                          int total) {
    }

    long create(String name, String user) {
        return jdbc.query(CREATE, Params.of().text("name", name).text("user", user), rs -> rs.getLong(1)).get(0);
    }

    void total(long groupId, int total) {
        jdbc.update(SET_TOTAL, Params.of().bigint("group", groupId).integer("total", total));
    }

    Counted count(long groupId, int completed, int failed, int stopped, int discarded) {
        return jdbc.query(COUNT, Params.of().bigint("group", groupId).integer("completed", completed).integer("failed", failed)
                .integer("stopped", stopped).integer("discarded", discarded), rs -> new Counted(rs.getBoolean(1), rs.getBoolean(2),
                rs.getString(3), rs.getInt(4), rs.getInt(5), rs.getInt(6), rs.getInt(7), rs.getInt(8))).get(0);
    }

    /** @return whether the group exists, and whether it was cancelled already (one row by its key) */
    public Optional<Boolean> cancelled(long groupId) {
        return jdbc.query(EXISTS, Params.of().bigint("group", groupId), rs -> rs.getBoolean(1)).stream().findFirst();
    }

    boolean cancel(long groupId, String user) {
        return jdbc.update(CANCEL, Params.of().bigint("group", groupId).text("user", user)) == 1;
    }

    List<Long> stagedMembers(long groupId) {
        return jdbc.query(STAGED_MEMBERS, Params.of().bigint("group", groupId), rs -> rs.getLong(1));
    }

    /** Per group, members newly found discarded (and now counted as such); of one group, or of all when null. */
    List<long[]> discardedMembers(Long groupId) {
        return jdbc.query(DISCARDED_MEMBERS, Params.of().bigint("group", groupId), rs -> new long[] {rs.getLong(1), rs.getInt(2)});
    }

    public Optional<GroupStatus> status(long groupId) {
        return jdbc.query(STATUS, Params.of().bigint("group", groupId), rs -> new GroupStatus(rs.getLong(1), rs.getString(2), rs.getInt(3),
                rs.getInt(4), rs.getInt(5), rs.getInt(6), rs.getInt(7), rs.getInt(8), rs.getInt(9), rs.getInt(10),
                Jdbc.instant(rs.getTimestamp(11)), Jdbc.instant(rs.getTimestamp(12)), Jdbc.instant(rs.getTimestamp(13)),
                List.of((String[]) rs.getArray(14).getArray()))).stream().findFirst();
    }

    /** Deletes up to {@code limit} groups ended more than {@code age} ago, with their followers; returns how many. */
    public int prune(java.time.Duration age, int limit) {
        return jdbc.update(PRUNE, Params.of().float8("seconds", (double) age.toSeconds()).integer("limit", limit));
    }
}
