package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Priority aging (ADR 0009): stored priorities raised in the background, so the claim stays an index read. */
class AgingIT extends EngineTest {

    private static final String POLICY = "it-aging";

    @Test
    void aJobThatWaitedLongEnoughOvertakesAFresherHigherPriorityOne() {
        set("dispatch.policy." + POLICY + ".admission-batch-size", "1");
        long old = stage(POLICY, "acme", 1)[0];

        // agePriority(every 1 s, step 1, cap 3): raised by the node's maintenance thread, capped at 3
        await().atMost(Duration.ofSeconds(30)).until(() ->
                db.count("SELECT priority FROM dispatch.staged_jobs WHERE id = ?", old) == 3);
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND next_age_at IS NULL", old))
                .as("at its cap it leaves the aging index").isEqualTo(1);
        assertThat(column("top_priority", POLICY, "acme")).isEqualTo("3");
        long fresh = submit(POLICY, "acme", 1, SubmitOption.priority(2))[0];

        assertThat(ticks.iterate().admitted()).isEqualTo(1);

        assertThat(dispatch.status(old).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(dispatch.status(fresh).state()).isEqualTo(SubmissionStatus.State.STAGED);
        assertThat(column("top_priority", POLICY, "acme")).isEqualTo("2");
    }

    @Test
    void aJobSubmittedAtOrAboveTheCapDoesNotAge() {
        long high = submit(POLICY, "globex", 1, SubmitOption.priority(5))[0];
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND next_age_at IS NULL AND priority = 5",
                high)).isEqualTo(1);
    }
}
