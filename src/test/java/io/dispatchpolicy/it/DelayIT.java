package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Governed;
import jakarta.batch.operations.JobOperator;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Jobs submitted for later: not admitted before their time (the database's clock), then at once. */
class DelayIT extends EngineTest {

    private static final String POLICY = "it-later";

    @Inject
    @Governed
    JobOperator jobs;

    @Test
    void aDelayedJobWaitsForItsTimeThenTheFirstIterationAdmitsIt() {
        long id = submit(POLICY, "soon", 1, SubmitOption.delay(Duration.ofSeconds(3)))[0];

        SubmissionStatus staged = dispatch.status(id);
        assertThat(staged.state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(staged.dueAt()).isNotNull();
        assertThat(jobs.getJobExecution(id).getExitStatus()).isEqualTo("DUE " + staged.dueAt());
        assertThat(ticks.iterate().admitted()).isZero();
        assertThat(column("pending_count", POLICY, "soon")).isEqualTo("0");
        assertThat(column("scheduled_count", POLICY, "soon")).isEqualTo("1");
        assertThat(column("last_checked_at", POLICY, "soon")).as("never claimed").isNull();

        await().atMost(Duration.ofSeconds(30)).until(() ->
                db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND due_at <= now()", id) == 1);
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(dispatch.status(id).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(column("scheduled_count", POLICY, "soon")).isEqualTo("0");
    }

    @Test
    void aPartitionWhoseJobsAllLieInTheFutureIsNeverClaimed() {
        submit(POLICY, "next-hour", 1_000, SubmitOption.delay(Duration.ofHours(1)));
        stage(POLICY, "now", 2);

        assertThat(ticks.iterate().admitted()).isEqualTo(2);
        assertThat(column("last_checked_at", POLICY, "next-hour")).isNull();
        assertThat(column("scheduled_count", POLICY, "next-hour")).isEqualTo("1000");
        assertThat(ticks.iterate().claimed()).isZero();
    }

    @Test
    void aTimeInThePastIsDueAtOnceAndItsPriorityCounts() {
        long past = submit(POLICY, "overdue", 1, SubmitOption.at(Instant.now().minus(Duration.ofHours(1))), SubmitOption.priority(3))[0];

        assertThat(ticks.iterate().admitted()).as("promoted and admitted in one iteration").isEqualTo(1);
        assertThat(dispatch.status(past).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
    }

    @Test
    void beyondTheHorizonIsRefusedAndNothingIsStaged() {
        assertThatThrownBy(() -> submit(POLICY, "far", 2, SubmitOption.at(Instant.now().plus(Duration.ofDays(4000)))))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("at most 3653 days ahead");
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'far'", POLICY))
                .isZero();
        assertThatThrownBy(() -> dispatch.submit("it-open", new Properties(), SubmitOption.delay(Duration.ofMinutes(1))))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("governed by no policy");
    }
}
