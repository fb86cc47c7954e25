package io.dispatchpolicy.observe;

import io.dispatchpolicy.infrastructure.persistence.AfterCommit;
import io.dispatchpolicy.observe.HistoryRepository.Minute;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-partition, per-minute history (admitted, completed, failed; ADR 0017), counted in memory
 * when each admission or end commits and written every few seconds in one statement by the node's
 * maintenance thread, so the hot path pays a map update rather than a row write per transaction. A
 * node killed with {@code kill -9} loses at most the counts of its last few seconds; a clean stop writes
 * them. A flush the database refuses keeps its counts for the next one.
 */
@ApplicationScoped
public class HistoryRecorder {

    /** How often the maintenance thread writes the counts. */
    public static final long FLUSH_EVERY_MS = 5_000;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Inject
    HistoryRepository repository;

    private record Key(long partitionId, long minuteMillis, String policyName) {
    }

    private record Counts(int admitted, int completed, int failed) {
        Counts plus(Counts o) {
            return new Counts(admitted + o.admitted, completed + o.completed, failed + o.failed);
        }
    }

    private final Map<Key, Counts> pending = new ConcurrentHashMap<>();

    /** Jobs admitted from a partition, counted when the admission commits. */
    public void admittedOnCommit(long partitionId, String policy, int jobs) {
        if (jobs > 0) {
            AfterCommit.run(transactions, () -> add(partitionId, policy, new Counts(jobs, 0, 0)));
        }
    }

    /** An execution of a partition's job ended with {@code status}; counted when that is recorded. */
    public void finishedOnCommit(long partitionId, String policy, String status) {
        boolean completed = "COMPLETED".equals(status);
        if (policy != null && (completed || "FAILED".equals(status))) {
            AfterCommit.run(transactions, () -> add(partitionId, policy, new Counts(0, completed ? 1 : 0, completed ? 0 : 1)));
        }
    }

    private void add(long partitionId, String policy, Counts counts) {
        long minute = System.currentTimeMillis() / 60_000 * 60_000;
        pending.merge(new Key(partitionId, minute, policy), counts, Counts::plus);
    }

    /** Writes what was counted since the last flush; @return rows written. */
    public int flush() {
        List<Minute> rows = new ArrayList<>();
        Map<Key, Counts> taken = new java.util.HashMap<>();
        for (Key key : List.copyOf(pending.keySet())) {
            Counts counts = pending.remove(key); // atomic with merge: a count arriving now starts a new entry
            if (counts != null) {
                taken.put(key, counts);
                rows.add(new Minute(key.partitionId(), key.minuteMillis(), key.policyName(), counts.admitted(), counts.completed(),
                        counts.failed()));
            }
        }
        rows.sort(Comparator.comparingLong(Minute::partitionId).thenComparingLong(Minute::minuteMillis));
        try {
            repository.add(rows);
        } catch (RuntimeException e) {
            taken.forEach((key, counts) -> pending.merge(key, counts, Counts::plus)); // for the next flush
            throw e;
        }
        return rows.size();
    }
}
