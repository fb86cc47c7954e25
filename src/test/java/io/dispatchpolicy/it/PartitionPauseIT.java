package io.dispatchpolicy.it;

import io.dispatchpolicy.api.PartitionPause;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.console.monitoring.Monitoring;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A job pauses its own partition (issue 35, deliverable 3; ADR 0033): nothing more of that partition is
 * admitted until the time it gave — by any node's claim, it is the database's row — other partitions go on,
 * the partition's "why waiting" says who and why, the audit log records it as the job's doing, and the pause
 * stands although the job then fails; bad pauses are refused at the call.
 */
class PartitionPauseIT extends EngineTest {

    private static final String POLICY = "it-pause-self";

    @Inject
    PartitionPause pause;

    @Inject
    Monitoring monitoring;

    @Test
    void aJobPausesItsPartitionForItsTimeOtherPartitionsGoOnAndThenItIsAdmittedAgain() {
        long caller = stage(POLICY, "x", 1, "pauseSeconds", "4", "fail", "true")[0];
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        long execution = dispatch.status(caller).executionId().getAsLong();
        await().atMost(Duration.ofSeconds(20)).until(() -> "FAILED".equals(db.batchStatus(execution)));
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'x' "
                + "AND paused_until > now() AND paused_by = ?", POLICY, execution)).as("the pause stands though the job failed").isEqualTo(1);

        long waiting = stage(POLICY, "x", 1)[0];
        long other = stage(POLICY, "y", 1)[0];
        assertThat(ticks.iterate().admitted()).as("only the other partition").isEqualTo(1);
        assertThat(dispatch.status(other).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(dispatch.status(waiting).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(monitoring.partition(partitionId(POLICY, "x")).orElseThrow().waiting())
                .startsWith("Paused by its job (execution " + execution + ") until ").contains("HTTP 429 from the tenant's API");
        var api = ConsoleHttp.get("api/partitions/" + partitionId(POLICY, "x"), "viewer:viewer-secret");
        assertThat(api.statusCode()).isEqualTo(200);
        assertThat(api.body()).contains("\"waiting\":\"Paused by its job (execution " + execution + ") until ");
        assertThat(ConsoleHttp.get("api/partitions/999999999", "viewer:viewer-secret").statusCode()).isEqualTo(404);
        assertThat(db.strings("SELECT actor || ' ' || after_value FROM dispatch.audit_log WHERE action = 'PARTITION_PAUSED_BY_JOB' "
                + "AND target = ?", String.valueOf(partitionId(POLICY, "x"))))
                .singleElement().asString().startsWith("job:execution " + execution + " paused until ").endsWith(": HTTP 429 from the tenant's API");

        // until its time, however often the tick looks
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertThat(ticks.iterate().admitted()).as("an iteration while the partition is paused").isZero();
            return db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'x' "
                    + "AND paused_until > now() + interval '500 milliseconds'", POLICY) == 0;
        });
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ticks.iterate();
            return dispatch.status(waiting).state() == SubmissionStatus.State.ADMITTED;
        });
        double pausedFor = Double.parseDouble(db.strings("SELECT extract(epoch FROM a.admitted_at - s.paused_until)::text FROM "
                + "dispatch.admissions a, dispatch.partitions s WHERE a.submission_id = ? AND s.policy_name = ? AND s.partition_key = 'x'",
                waiting, POLICY).get(0));
        assertThat(pausedFor).as("admitted after the pause ended, not before").isGreaterThanOrEqualTo(0);
    }

    @Test
    void aBadPauseIsRefusedAtTheCallAndNothingIsPaused() {
        long ungoverned = BatchRuntime.getJobOperator().start("it-ungoverned", new Properties());
        assertThatThrownBy(() -> pause.pauseFor(ungoverned, Duration.ofSeconds(5), "429"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("PartitionPause: execution " + ungoverned + " is not a governed job in flight, so it has no partition to pause");
        assertThatThrownBy(() -> pause.pauseFor(ungoverned, Duration.ZERO, "429")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PartitionPause.pauseFor: the wait must be more than 0 and at most 3653 days, was PT0S");
        assertThatThrownBy(() -> pause.pauseUntil(ungoverned, Instant.now().minusSeconds(1), "429"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not in the future");
        assertThatThrownBy(() -> pause.pauseFor(ungoverned, Duration.ofSeconds(5), " ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give a reason");
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE paused_by = ?", ungoverned)).isZero();
        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(db.batchStatus(ungoverned)));
    }
}
