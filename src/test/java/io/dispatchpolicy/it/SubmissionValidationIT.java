package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.api.SubmissionRejectedException;
import jakarta.annotation.Resource;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobStartException;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every kind of bad input fails at submission with a clear error, and stages nothing. */
class SubmissionValidationIT extends SystemTest {

    @Inject
    @Governed
    JobOperator governed;

    @Inject
    DispatchOperator dispatch;

    @Resource(lookup = "java:jboss/UserTransaction")
    UserTransaction transaction;

    private long stagedBefore;
    private long partitionsBefore;

    @BeforeEach
    void freezeChecked() {
        // Nothing of it-checked may be admitted while a test counts its staged rows.
        db.update("UPDATE dispatch.partitions SET next_eligible_at = now() + interval '1 hour' WHERE policy_name = 'it-checked'");
        // the newest ids, not counts: an earlier test's leftovers (a deadline expiring, a schedule's occurrence) may
        // leave meanwhile, and a count would take that for this test's doing; a rejected submission adds no row
        stagedBefore = db.count("SELECT coalesce(max(id), 0) FROM dispatch.staged_jobs");
        partitionsBefore = db.count("SELECT coalesce(max(id), 0) FROM dispatch.partitions");
    }

    private void rejected(ThrowingCallable submission, String message) {
        assertThatThrownBy(submission).isInstanceOf(SubmissionRejectedException.class).hasMessageContaining(message);
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id > ?", stagedBefore)).as("staged rows added").isZero();
        assertThat(db.count("SELECT count(*) FROM dispatch.partitions WHERE id > ?", partitionsBefore)).as("partitions added").isZero();
    }

    @Test
    void unknownJobXmlName() {
        assertThatThrownBy(() -> governed.start("no-such-job", Params.of("tenant", "a")))
                .isInstanceOf(JobStartException.class);
        rejected(() -> governed.start(null, Params.of("tenant", "a")), "null or blank");
        rejected(() -> governed.start("  ", Params.of("tenant", "a")), "null or blank");
    }

    @Test
    void contextFunctionThatThrows() {
        rejected(() -> governed.start("it-checked", Params.of("tenant", "a", "explode", "yes")),
                "context function failed");
    }

    @Test
    void contextValueOfUnsupportedType() {
        rejected(() -> governed.start("it-checked", Params.of("tenant", "a", "weird", "yes")), "Context value 'weird'");
    }

    @Test
    void nullOrBlankPartitionKey() {
        rejected(() -> governed.start("it-checked", Params.of("other", "x")), "null partition key");
        rejected(() -> governed.start("it-checked", Params.of("tenant", "   ")), "blank partition key");
        rejected(() -> governed.start("it-checked", null), "null partition key");
    }

    @Test
    void partitionKeyTooLong() {
        rejected(() -> governed.start("it-checked", Params.of("tenant", "k".repeat(257))), "exceeds 256");
    }

    @Test
    void parametersOverTheDocumentedSize() {
        rejected(() -> governed.start("it-checked", Params.of("tenant", "a", "blob", "x".repeat(3000))), "the limit is");
    }

    @Test
    void parametersJBeretCannotStoreFaithfully() {
        rejected(() -> governed.start("it-checked", Params.of("tenant", "a", "note", "two\nlines")), "line break");
        rejected(() -> governed.start("it-checked", Params.of("tenant", "a", "k=v", "x")), "is invalid");
        rejected(() -> governed.start("it-checked", Params.of("tenant", "a", "dispatch.submissionId", "1")), "reserved");
    }

    @Test
    void oneBadJobInABulkCallStagesNone() {
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            jobs.add(Params.of("tenant", "bulk-" + i));
        }
        jobs.set(57, Params.of("tenant", ""));
        rejected(() -> dispatch.submitAll("it-checked", jobs), "blank partition key");
    }

    @Test
    void aRejectionLeavesTheCallersTransactionUsable() throws Exception {
        transaction.begin();
        long good = governed.start("it-checked", Params.of("tenant", "tx-caller"));
        assertThatThrownBy(() -> governed.start("it-checked", Params.of("tenant", "")))
                .isInstanceOf(SubmissionRejectedException.class);
        transaction.commit();
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ?", good)).isEqualTo(1);
        db.update("UPDATE dispatch.partitions SET next_eligible_at = NULL WHERE policy_name = 'it-checked'");
    }
}
