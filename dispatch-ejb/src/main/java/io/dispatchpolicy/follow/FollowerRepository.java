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

    // Locked, so the one transaction that records the end decides each follower (two recoveries of one row
    // cannot both reach here: the in-flight row's lock orders them; the state test makes a repeat a no-op).
    private static final Sql LOCK_WAITING = Sql.of("""
            SELECT id, on_end, job_name, job_parameters::text, spec::text, submitted_by FROM dispatch.followers
             WHERE after_submission = :submission AND state = 'waiting'
             ORDER BY id
               FOR UPDATE
            """);

    private static final Sql DECIDE = Sql.of("""
            UPDATE dispatch.followers SET state = :state, decided_at = clock_timestamp(), submission_id = :staged, detail = :detail
             WHERE id = :id AND state = 'waiting'
            """);

    private static final String COLUMNS = """
            id, after_submission, on_end, job_name, state, submission_id, detail, created_at, decided_at FROM dispatch.followers""";

    private static final Sql AFTER = Sql.of("SELECT " + COLUMNS + " WHERE after_submission = :submission ORDER BY id");

    private static final Sql STAGED_AS = Sql.of("SELECT " + COLUMNS + " WHERE submission_id = :submission ORDER BY id");

    // Followers past retention, a batch at a time: decided ones, and waiting ones whose predecessor will never end (it was
    // discarded before it ran, and is neither staged nor in flight any more).
    private static final Sql PRUNE = Sql.of("""
            DELETE FROM dispatch.followers WHERE id IN (
                SELECT f.id FROM dispatch.followers f
                 WHERE coalesce(f.decided_at, f.created_at) < clock_timestamp() - make_interval(secs => :seconds)
                   AND (f.state <> 'waiting'
                        OR NOT EXISTS (SELECT 1 FROM dispatch.staged_jobs s WHERE s.id = f.after_submission)
                           AND NOT EXISTS (SELECT 1 FROM dispatch.inflight_jobs i WHERE i.submission_id = f.after_submission))
                 LIMIT :limit)
            """);

    @Inject
    Jdbc jdbc;

    /** A follower waiting for its predecessor, as stored. */
    record Waiting(long id, String onEnd, String jobName, String parametersJson, String specJson, String submittedBy) {
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
        return jdbc.query(LOCK_WAITING, Params.of().bigint("submission", submissionId), rs -> new Waiting(rs.getLong(1),
                rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)));
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
