package io.dispatchpolicy.staging;

import io.dispatchpolicy.admission.AdmissionTake;
import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.Restart;
import io.dispatchpolicy.domain.model.StagedJob;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Time-offset priority (ADR 0046) against the engine's test database: staging stores the instant each job counts
 * as submitted, the take follows it within a priority, and a retry staged again under its submission id keeps
 * the place its submission had.
 */
class PriorityOffsetTest {

    private static final String POLICY = "it-offset";
    private final Jdbc jdbc = EngineDatabase.jdbc();
    private final PlanDatabase db = new PlanDatabase(jdbc);
    private final StagingRepository staging = new StagingRepository();
    private final AdmissionTake take = io.dispatchpolicy.admission.TestRepositories.take(jdbc);

    @BeforeEach
    void repositories() {
        staging.jdbc = jdbc;
    }

    @AfterEach
    void removeAll() {
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (SELECT id FROM dispatch.partitions WHERE policy_name = ?)", POLICY);
        db.update("DELETE FROM dispatch.admissions WHERE partition_id IN (SELECT id FROM dispatch.partitions WHERE policy_name = ?)", POLICY);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
    }

    private static Submission job(int priority, long offsetMillis) {
        return new Submission("j", JobParameters.of(new Properties()), "k", "", "{}", priority, null, null, "k", "", 1, offsetMillis);
    }

    private long stage(int priority, long offsetMillis) {
        return staging.stage(POLICY, "j", "u", List.of(job(priority, offsetMillis)), null, null, JobTimeouts.NONE)[0];
    }

    /** Moves a staged job's submission back by this many seconds, as if it had been submitted then. */
    private void submittedAgo(long id, int seconds) {
        db.update("UPDATE dispatch.staged_jobs SET ordered_at = ordered_at - make_interval(secs => ?) WHERE id = ?", seconds, id);
    }

    private long partition() {
        return db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'k' AND lane = ''", POLICY);
    }

    private List<Long> takeAll() {
        return take.take(partition(), 100).stream().map(StagedJob::submissionId).toList();
    }

    @Test
    void anOffsetJobGoesAheadOfTheWorkOfItsOffsetAndBehindEveryOlderJobWithinItsPriority() {
        long older = stage(0, 0);
        submittedAgo(older, 61);
        long recent = stage(0, 0);
        submittedAgo(recent, 59);
        long ahead = stage(0, 60_000);
        long plain = stage(0, 0);
        long behind = stage(0, -60_000);
        long urgent = stage(1, 0);
        long urgentAhead = stage(1, 60_000);
        assertThat(db.count("SELECT round(extract(epoch FROM staged_at - ordered_at) * 1000) FROM dispatch.staged_jobs WHERE id = ?", ahead))
                .as("ordered 60 s before it was staged, to the millisecond").isBetween(59_999L, 60_001L);

        assertThat(takeAll()).containsExactly(urgentAhead, urgent, older, ahead, recent, plain, behind);
    }

    @Test
    void equalOffsetsStayInSubmissionOrderAcrossAndWithinStatements() {
        List<Submission> five = LongStream.range(0, 5).mapToObj(i -> job(0, 30_000)).toList();
        long[] ids = staging.stage(POLICY, "j", "u", five, null, null, JobTimeouts.NONE);
        long last = stage(0, 30_000);

        assertThat(takeAll()).containsExactly(ids[0], ids[1], ids[2], ids[3], ids[4], last);
    }

    @Test
    void aRetryStagedAgainKeepsThePlaceItsSubmissionWasOrderedAt() {
        long first = stage(0, 0);
        submittedAgo(first, 120);
        assertThat(takeAll()).containsExactly(first);
        // its admission recorded where it was ordered (as AdmissionRepository does); it failed and is retried
        db.update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at, staged_at, ordered_at) "
                + "VALUES (?, ?, ?, now(), now() - interval '120 seconds', now() - interval '120 seconds')", first, 9_000_000_000L + first,
                partition());
        long newer = stage(0, 0);
        submittedAgo(newer, 60);
        staging.restage(new Restart(first, partition(), "j", 9_000_000_000L + first, "u", 0, 2, null, false));

        assertThat(takeAll()).as("the retry is ahead of a job submitted after it, though staged again later").containsExactly(first, newer);
    }

    @Test
    void aRetryOfAnAdmissionRecordedBeforeOffsetsIsOrderedByItsFirstStaging() {
        long first = stage(0, 0);
        assertThat(takeAll()).containsExactly(first);
        db.update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at, staged_at) "
                + "VALUES (?, ?, ?, now(), now() - interval '120 seconds')", first, 9_000_000_000L + first, partition());
        long newer = stage(0, 0);
        submittedAgo(newer, 60);
        staging.restage(new Restart(first, partition(), "j", 9_000_000_000L + first, "u", 0, 2, null, false));

        assertThat(takeAll()).containsExactly(first, newer);
    }
}
