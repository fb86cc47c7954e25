package io.dispatchpolicy.console.bulk;

import java.io.Serializable;
import java.time.Instant;
import java.util.Map;

/**
 * A bulk action as the console and the API show it.
 *
 * @param matched         how many jobs matched when it was requested (the preview's figure)
 * @param done            acted on so far
 * @param skipped         matched, but no longer in a state to act on when reached (admitted, ended meanwhile)
 * @param failed          the action failed for them ({@code lastError} says why, for the last)
 * @param state           running, done, cancelled or failed
 * @param cancelRequestedBy who asked to cancel it, or null
 */
public record BulkActionView(long id, BulkKind kind, Map<String, String> filter, String requestedBy, Instant requestedAt,
                             String state, long matched, long done, long skipped, long failed, String lastError,
                             String cancelRequestedBy, Instant updatedAt, Instant finishedAt) implements Serializable {

    /** Done, skipped and failed, of the matched: 0 to 100 (100 once finished). */
    public int percent() {
        if (!"running".equals(state) || matched == 0) {
            return "running".equals(state) ? 0 : 100;
        }
        return (int) Math.min(99, (done + skipped + failed) * 100 / matched);
    }
}
