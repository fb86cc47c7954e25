package io.dispatchpolicy.console.bulk;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The node's maintenance task for bulk actions: batches, each its own transaction, for up to {@link #BUDGET_MS}
 * a pass, so the other tasks (the heartbeat first) wait at most that long. A batch that fails is tried again at
 * the next pass; an action whose batches fail {@link #ATTEMPTS} times in a row ends as failed, with the error.
 */
@ApplicationScoped
public class BulkActionMaintenance {

    private static final Logger LOG = Logger.getLogger(BulkActionMaintenance.class.getName());

    /** How often the task runs. */
    public static final long EVERY_MS = 1_000;
    /** How long one pass works at most. */
    static final long BUDGET_MS = 2_000;
    /** Failed batches in a row that end an action. */
    static final int ATTEMPTS = 3;

    @Inject
    BulkActionRunner runner;

    private final Map<Long, Integer> failures = new HashMap<>();

    public void pass() {
        long until = System.nanoTime() + BUDGET_MS * 1_000_000;
        while (System.nanoTime() < until) {
            Optional<Long> worked;
            try {
                worked = runner.runBatch();
            } catch (RuntimeException e) {
                long id = runner.lastClaimed();
                int failed = failures.merge(id, 1, Integer::sum);
                if (failed >= ATTEMPTS) {
                    failures.remove(id);
                    String error = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
                    LOG.warning(() -> "Bulk action " + id + " failed " + failed + " times in a row; it ends as failed: " + error);
                    runner.fail(id, error);
                } else {
                    LOG.warning(() -> "A batch of bulk action " + id + " failed (it is tried again): " + e);
                }
                return;
            }
            if (worked.isEmpty()) {
                return;
            }
            failures.remove(worked.get());
        }
    }
}
