package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 2,000 jobs in one call: staged together, then every one admitted and run once by JBeret. A call larger
 * than one statement's chunk is staged in the engine's tests ({@code BulkStagingTest}, 20,500 jobs); a
 * call of 10,000 is timed by the benchmark.
 */
class BulkSubmissionIT extends SystemTest {

    private static final int JOBS = 2_000;

    @Inject
    DispatchOperator dispatch;

    @Test
    void twoThousandJobsInOneCallRunOnceEach() {
        List<Properties> jobs = new ArrayList<>(JOBS);
        for (int i = 0; i < JOBS; i++) {
            jobs.add(Params.of("tenant", "tenant-" + (i % 50), "n", Integer.toString(i)));
        }
        long[] ids = dispatch.submitAll("it-bulk.xml", jobs);

        assertThat(ids).hasSize(JOBS);
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).isGreaterThan(ids[i - 1]);
        }
        assertThat(Arrays.stream(ids).allMatch(DispatchOperator::isSubmissionId)).isTrue();
        // Parameters stayed with their own submission.
        assertThat(db.strings("SELECT job_parameters->>'n' FROM dispatch.staged_jobs WHERE id = ? "
                + "UNION ALL SELECT '1234' FROM dispatch.admissions WHERE submission_id = ?", ids[1234], ids[1234]))
                .containsExactly("1234");
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE policy_name = 'it-bulk'")).isEqualTo(50);

        await().atMost(Duration.ofMinutes(5)).until(() -> db.completedExecutions("it-bulk") == JOBS);
        assertThat(db.staged("it-bulk")).isZero();
        assertThat(db.executionsPerSubmission("it-bulk").values()).hasSize(JOBS).containsOnly(1);
    }
}
