package io.dispatchpolicy.api;

import java.time.Duration;
import java.time.Instant;

/**
 * Lets a running job pause its own partition — its tenant, its endpoint, whatever its policy partitions by —
 * when what it calls says "not now" (an HTTP 429 with Retry-After): nothing more of that partition is admitted,
 * on any node, until the time given; other partitions go on (ADR 0033). Inject it into a batchlet, reader,
 * processor, writer or listener and pass the running execution's id:
 *
 * <pre>{@code
 * @Inject PartitionPause pause;
 * @Inject JobContext job;
 * ...
 * if (response.statusCode() == 429) {
 *     pause.pauseFor(job.getExecutionId(), Duration.ofSeconds(retryAfter), "billing API answered 429");
 *     throw new RetryLaterException(...);   // or wait, or go on: the job decides what becomes of itself
 * }
 * }</pre>
 *
 * The pause commits on its own, whatever becomes of the job's transaction; a longer pause of the same partition
 * wins over a shorter one. It is audited as the job's doing, shown in the partition's "why waiting" and its API.
 */
public interface PartitionPause {

    /**
     * Pauses the partition of the governed execution {@code executionId} for {@code wait} from now (the
     * database's clock).
     *
     * @return until when it is paused (a longer pause already in force is kept)
     * @throws IllegalArgumentException for a wait of zero, negative or more than {@link SubmitOption#HORIZON}, or a blank reason
     * @throws IllegalStateException    when the execution is not a governed one in flight: it has no partition
     */
    Instant pauseFor(long executionId, Duration wait, String reason);

    /**
     * Pauses the partition of {@code executionId} until {@code until}.
     *
     * @throws IllegalArgumentException for a time in the past or more than {@link SubmitOption#HORIZON} ahead
     * @see #pauseFor
     */
    Instant pauseUntil(long executionId, Instant until, String reason);
}
