package io.dispatchpolicy.follow;

import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.spi.Uniqueness;
import jakarta.batch.runtime.BatchStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** A continuation kept in a follower row comes back with exactly the options and chain it was given (ADR 0051). */
class ContinuationCodecTest {

    private static Properties params(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void everyOptionKindAndTheChainSurviveTheRow() {
        Instant at = Instant.parse("2026-12-01T08:00:00Z");
        Continuation c = Continuation.onSuccess("reindex", params("tenant", "42"),
                SubmitOption.priority(7), SubmitOption.at(at), SubmitOption.lane("fast"), SubmitOption.timeout(Duration.ofMinutes(3)),
                SubmitOption.progressTimeout(Duration.ofSeconds(40)), SubmitOption.cost(2), SubmitOption.priorityOffset(Duration.ofSeconds(-60)),
                SubmitOption.unique("k-42", new Uniqueness(Duration.ofHours(1), EnumSet.allOf(Uniqueness.State.class))),
                SubmitOption.expireAfter(Duration.ofMinutes(10)))
                .then(Continuation.onFailure("cleanup", params("tenant", "42", "why", "a=b"), SubmitOption.delay(Duration.ofSeconds(5)),
                                SubmitOption.debounce("d", Duration.ofSeconds(2), Duration.ofSeconds(9)), SubmitOption.deadline(at))
                        .then(Continuation.onAnyEnd("notify", params())));

        SubmitOption[] o = ContinuationCodec.options(ContinuationCodec.spec(c));
        assertThat(SubmitOption.priorityOf(o)).hasValue(7);
        assertThat(SubmitOption.dueOf(o)).hasValue(new SubmitOption.Due(null, at));
        assertThat(SubmitOption.laneOf(o)).hasValue("fast");
        assertThat(SubmitOption.timeoutOf(o)).hasValue(Duration.ofMinutes(3));
        assertThat(SubmitOption.progressTimeoutOf(o)).hasValue(Duration.ofSeconds(40));
        assertThat(SubmitOption.costOf(o)).hasValue(2);
        assertThat(SubmitOption.priorityOffsetOf(o)).hasValue(Duration.ofSeconds(-60));
        assertThat(SubmitOption.uniqueOf(o)).hasValue(new SubmitOption.Unique("k-42",
                new Uniqueness(Duration.ofHours(1), EnumSet.allOf(Uniqueness.State.class))));
        assertThat(SubmitOption.expiryOf(o)).hasValue(new SubmitOption.Expiry(null, Duration.ofMinutes(10)));
        assertThat(SubmitOption.continuationsOf(o)).isEmpty();

        List<Continuation> next = ContinuationCodec.next(ContinuationCodec.spec(c));
        assertThat(next).hasSize(1);
        Continuation cleanup = next.get(0);
        assertThat(cleanup.when()).isEqualTo(Continuation.When.FAILURE);
        assertThat(cleanup.jobXmlName()).isEqualTo("cleanup");
        assertThat(cleanup.parameters()).isEqualTo(params("tenant", "42", "why", "a=b"));
        SubmitOption[] co = cleanup.options().toArray(new SubmitOption[0]);
        assertThat(SubmitOption.dueOf(co)).hasValue(new SubmitOption.Due(Duration.ofSeconds(5), null));
        assertThat(SubmitOption.debounceOf(co)).hasValue(new SubmitOption.Debounced("d",
                new io.dispatchpolicy.spi.Debounce(Duration.ofSeconds(2), Duration.ofSeconds(9))));
        assertThat(SubmitOption.expiryOf(co)).hasValue(new SubmitOption.Expiry(at, null));
        assertThat(cleanup.next()).singleElement().satisfies(n -> {
            assertThat(n.when()).isEqualTo(Continuation.When.ANY_END);
            assertThat(n.jobXmlName()).isEqualTo("notify");
            assertThat(n.next()).isEmpty();
        });
        assertThat(c.depth()).isEqualTo(3);
        assertThat(ContinuationCodec.parameters(ContinuationCodec.parameters(params("a", "1", "b", "x=y")))).isEqualTo(params("a", "1", "b", "x=y"));
    }

    @Test
    void aContinuationIsToldItsPredecessorsOutcomeOverAnyParameterOfTheSameName() {
        Properties own = params("tenant", "42", Continuation.PREVIOUS_EXIT_STATUS, "mine");
        Properties p = Continuations.withOutcome(own, new JobEnd(1_000_000_000_007L, 55L, "import", BatchStatus.FAILED, null));
        assertThat(p).containsEntry("tenant", "42").containsEntry(Continuation.PREVIOUS_SUBMISSION, "1000000000007")
                .containsEntry(Continuation.PREVIOUS_EXECUTION, "55").containsEntry(Continuation.PREVIOUS_JOB, "import")
                .containsEntry(Continuation.PREVIOUS_BATCH_STATUS, "FAILED").doesNotContainKey(Continuation.PREVIOUS_EXIT_STATUS);
    }
}
