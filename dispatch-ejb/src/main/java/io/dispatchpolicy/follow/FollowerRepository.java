package io.dispatchpolicy.follow;

import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** The rows of {@code dispatch.followers}: written with their predecessor, decided at its last end, read by the Jobs view. */
@ApplicationScoped
public class FollowerRepository {

    // Every (submission, follower) pair of one call in one statement: a submitAll of 10,000 jobs with two
    // continuations each is one round trip.
    private static final Sql INSERT = Sql.of("""
            INSERT INTO dispatch.followers (after_submission, on_end, job_name, job_parameters, spec, submitted_by)
            SELECT t.a, t.o, t.j, t.p::jsonb, t.s::jsonb, :user
              FROM unnest(:after::bigint[], :on_end::text[], :job::text[], :parameters::text[], :spec::text[]) AS t(a, o, j, p, s)
            """);

    // A group's members (ADR 0052): a follower each, of kind 'group', that counts its end into its group.
    private static final Sql INSERT_MEMBERS = Sql.of("""
            INSERT INTO dispatch.followers (after_submission, kind, on_end, job_name, job_parameters, spec, submitted_by, group_id)
            SELECT t.a, 'group', 'any', t.j, '{}'::jsonb, '{}'::jsonb, :user, :group
              FROM unnest(:after::bigint[], :job::text[]) AS t(a, j)
            """);

    // A group's callbacks: followers of kind 'callback' waiting for the group, not for a submission.
    private static final Sql INSERT_CALLBACKS = Sql.of("""
            INSERT INTO dispatch.followers (after_submission, kind, on_end, job_name, job_parameters, spec, submitted_by, group_id)
            SELECT NULL, 'callback', t.o, t.j, t.p::jsonb, t.s::jsonb, :user, :group
              FROM unnest(:on_end::text[], :job::text[], :parameters::text[], :spec::text[]) AS t(o, j, p, s)
            """);

    private static final String WAITING_COLUMNS = "id, kind, on_end, job_name, job_parameters::text, spec::text, submitted_by, group_id";

    // Locked, so the one transaction that records the end decides each follower (two recoveries of one row
    // cannot both reach here: the in-flight row's lock orders them; the state test makes a repeat a no-op).
    private static final Sql LOCK_WAITING = Sql.of("SELECT " + WAITING_COLUMNS + """
             FROM dispatch.followers
             WHERE after_submission = :submission AND state = 'waiting'
             ORDER BY id
               FOR UPDATE
            """);

    private static final Sql LOCK_CALLBACKS = Sql.of("SELECT " + WAITING_COLUMNS + """
             FROM dispatch.followers
             WHERE group_id = :group AND kind = 'callback' AND state = 'waiting'
             ORDER BY id
               FOR UPDATE
            """);

    private static final Sql DECIDE = Sql.of("""
            UPDATE dispatch.followers SET state = :state, decided_at = clock_timestamp(), submission_id = :staged, detail = :detail
             WHERE id = :id AND state = 'waiting'
            """);

    private static final String COLUMNS = """
            id, after_submission, on_end, job_name, state, submission_id, detail, created_at, decided_at FROM dispatch.followers""";

    private static final Sql AFTER = Sql.of("SELECT " + COLUMNS + " WHERE after_submission = :submission AND kind = 'job' ORDER BY id");

    private static final Sql STAGED_AS = Sql.of("SELECT " + COLUMNS + " WHERE submission_id = :submission AND kind = 'job' ORDER BY id");

    // Followers past retention, a batch at a time: decided ones, and waiting ones whose predecessor will never end (it was
    // discarded before it ran, and is neither staged nor in flight any more).
    private static final Sql PRUNE = Sql.of("""
            DELETE FROM dispatch.followers WHERE id IN (
                SELECT f.id FROM dispatch.followers f
                 WHERE coalesce(f.decided_at, f.created_at) < clock_timestamp() - make_interval(secs => :seconds)
                   AND (f.state <> 'waiting'
                        OR f.kind <> 'callback' AND NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = f.after_submission)
                           AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.submission_id = f.after_submission))
                 LIMIT :limit)
            """);

    private static final Sql GROUP_OF = Sql.of("""
            SELECT group_id FROM dispatch.followers WHERE after_submission = :submission AND kind = 'group'
            """);

    @Inject
    Jdbc jdbc;

    /** The group a submission is a member of (ADR 0052). */
    public java.util.Optional<Long> groupOf(long submissionId) {
        return jdbc.query(GROUP_OF, Params.of().bigint("submission", submissionId), rs -> rs.getLong(1)).stream().findFirst();
    }

    /** A follower waiting for its predecessor (or, a callback, for its group), as stored. */
    public record Waiting(long id, String kind, String onEnd, String jobName, String parametersJson, String specJson, String submittedBy,
                   Long groupId) {
    }

    private static Waiting waiting(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Waiting(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                rs.getString(7), rs.getObject(8) == null ? null : rs.getLong(8));
    }

    /** One row per submission and continuation; the lists are parallel, one entry per row. */
    void insert(String user, List<Long> after, List<String> onEnd, List<String> jobs, List<String> parameters, List<String> specs) {
        if (after.isEmpty()) {
            return;
        }
        jdbc.update(INSERT, Params.of().text("user", user).longs("after", after).texts("on_end", onEnd).texts("job", jobs)
                .texts("parameters", parameters).texts("spec", specs));
    }

    List<Waiting> lockWaiting(long submissionId) {
        return jdbc.query(LOCK_WAITING, Params.of().bigint("submission", submissionId), FollowerRepository::waiting);
    }

    List<Waiting> lockCallbacks(long groupId) {
        return jdbc.query(LOCK_CALLBACKS, Params.of().bigint("group", groupId), FollowerRepository::waiting);
    }

    /** A follower of kind 'group' per staged member; the lists are parallel. */
    void insertMembers(String user, long groupId, List<Long> after, List<String> jobs) {
        if (!after.isEmpty()) {
            jdbc.update(INSERT_MEMBERS, Params.of().text("user", user).bigint("group", groupId).longs("after", after).texts("job", jobs));
        }
    }

    /** The group's callbacks; the lists are parallel. */
    void insertCallbacks(String user, long groupId, List<String> onEnd, List<String> jobs, List<String> parameters, List<String> specs) {
        if (!onEnd.isEmpty()) {
            jdbc.update(INSERT_CALLBACKS, Params.of().text("user", user).bigint("group", groupId).texts("on_end", onEnd).texts("job", jobs)
                    .texts("parameters", parameters).texts("spec", specs));
        }
    }

    void decide(long id, String state, Long staged, String detail) {
        jdbc.update(DECIDE, Params.of().bigint("id", id).text("state", state).bigint("staged", staged).text("detail", detail));
    }

    /** The followers of a submission (what continues it), oldest first. */
    public List<Follower> after(long submissionId) {
        return jdbc.query(AFTER, Params.of().bigint("submission", submissionId), FollowerRepository::row);
    }

    /** The followers a submission was staged for (what it continues). */
    public List<Follower> stagedAs(long submissionId) {
        return jdbc.query(STAGED_AS, Params.of().bigint("submission", submissionId), FollowerRepository::row);
    }

    /**
     * Deletes up to {@code limit} followers decided more than {@code age} ago, or waiting that long for a predecessor that
     * will never end; returns how many.
     */
    public int prune(java.time.Duration age, int limit) {
        return jdbc.update(PRUNE, Params.of().float8("seconds", (double) age.toSeconds()).integer("limit", limit));
    }

    private static Follower row(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Follower(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getObject(6) == null ? null : rs.getLong(6), rs.getString(7), Jdbc.instant(rs.getTimestamp(8)),
                Jdbc.instant(rs.getTimestamp(9)));
    }
}
