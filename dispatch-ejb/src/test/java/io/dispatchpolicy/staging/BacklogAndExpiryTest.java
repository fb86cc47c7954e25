package io.dispatchpolicy.staging;

import io.dispatchpolicy.domain.model.JobParameters;
import io.dispatchpolicy.domain.model.JobTimeouts;
import io.dispatchpolicy.domain.model.Submission;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import io.dispatchpolicy.infrastructure.persistence.Transactions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A backlog cap with each overflow under four concurrent submitters, and deadlines (ADR 0036), against the
 * engine's test database, each submission in a transaction of its own as the server gives it.
 */
class BacklogAndExpiryTest {

    private static final String POLICY = "it-backlog";
    private static final int CAP = 100;
    private final Jdbc plain = EngineDatabase.jdbc();
    private final Transactions tx = new Transactions(plain.dataSource());
    private final PlanDatabase db = new PlanDatabase(tx.jdbc());
    private final StagingRepository staging = new StagingRepository();
    private final DiscardedJobs discarded = new DiscardedJobs();

    @BeforeEach
    void repositories() {
        staging.jdbc = tx.jdbc();
        discarded.jdbc = tx.jdbc();
        discarded.outbox = io.dispatchpolicy.notify.TestOutbox.subscribed(tx.jdbc(), "x-expiry");
    }

    @AfterEach
    void removeAll() {
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (SELECT id FROM dispatch.partitions WHERE policy_name = ?)", POLICY);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
        db.update("DELETE FROM dispatch.discarded_jobs WHERE policy_name = ?", POLICY);
        db.update("DELETE FROM dispatch.webhook_deliveries WHERE webhook = 'x-expiry'");
    }

    private static Submission job(String key, Long delayMillis) {
        Properties p = new Properties();
        p.setProperty("tenant", key);
        return new Submission("j", JobParameters.of(p), key, "", "{\"tenant\":\"" + key + "\"}", 0, delayMillis, null, key, "", 1, 0);
    }

    private long[] stage(List<Submission> jobs, StagingRepository.Deadline deadline) {
        return staging.stage(POLICY, "j", "u", jobs, null, null, JobTimeouts.NONE, null, deadline);
    }

    private long staged() {
        return plain.query("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = '" + POLICY + "'", (c, st) -> { }, rs -> rs.getLong(1)).get(0);
    }

    /**
     * Four submitters, 60 single-job calls each, on one partition capped at 100, while a fifth connection
     * samples the partition's committed staged count.
     *
     * @return the largest count sampled
     */
    private long fourSubmitters(java.util.function.Supplier<Boolean> submitOne) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(5);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong most = new AtomicLong();
        Future<?> sampler = pool.submit(() -> {
            while (!done.get()) {
                most.accumulateAndGet(staged(), Math::max);
            }
        });
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            workers.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < 60; i++) {
                    submitOne.get();
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : workers) {
            f.get();
        }
        done.set(true);
        sampler.get();
        pool.shutdown();
        return most.get();
    }

    @Test
    void dropOldestKeepsTheNewestHundredAndRecordsTheRestDropped() throws Exception {
        long most = fourSubmitters(() -> tx.inTransaction(() -> {
            stage(List.of(job("t", null)), StagingRepository.Deadline.NONE);
            staging.trimToCap(POLICY, List.of(job("t", null)), CAP, false);
            return true;
        }));
        assertThat(most).as("sampled").isLessThanOrEqualTo(CAP);
        assertThat(staged()).isEqualTo(CAP);
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE policy_name = ? AND reason = 'dropped'", POLICY)).isEqualTo(140);
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs d WHERE d.policy_name = ? AND d.submission_id > "
                + "(SELECT min(s.id) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id WHERE p.policy_name = ?)",
                POLICY, POLICY)).as("every dropped job is older than every kept one").isZero();
        assertThat(db.count("SELECT pending_count FROM dispatch.partitions WHERE policy_name = ?", POLICY)).isEqualTo(CAP);
    }

    @Test
    void keepNewestLeavesWhatOneSubmissionAtATimeWouldHave() throws Exception {
        long most = fourSubmitters(() -> tx.inTransaction(() -> {
            stage(List.of(job("t", null)), StagingRepository.Deadline.NONE);
            staging.trimToCap(POLICY, List.of(job("t", null)), CAP, true);
            return true;
        }));
        assertThat(most).as("sampled").isLessThanOrEqualTo(CAP);
        // 240 submissions: the 101st replaced the first 100, the 201st the next 100: 40 left
        assertThat(staged()).isEqualTo(40);
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE policy_name = ? AND reason = 'replaced'", POLICY)).isEqualTo(200);
        // a bulk call of 130 into it: 40 + 130 = 170, the 61st replaced all: 70 left, all of the call
        long[] ids = tx.inTransaction(() -> {
            List<Submission> jobs = java.util.Collections.nCopies(130, job("t", null));
            long[] staged = stage(jobs, StagingRepository.Deadline.NONE);
            staging.trimToCap(POLICY, jobs, CAP, true);
            return staged;
        });
        assertThat(staged()).isEqualTo(70);
        assertThat(db.count("SELECT min(s.id) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = ?", POLICY)).isEqualTo(ids[60]);
    }

    @Test
    void rejectCountsUnderThePartitionLockSoConcurrentCallsNeverPassTheCap() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        long most = fourSubmitters(() -> tx.inTransaction(() -> {
            List<Submission> one = List.of(job("t", null));
            int holds = staging.lockBacklogs(POLICY, one).get(0).staged();
            if (holds + 1 > CAP) {
                refused.incrementAndGet();
                return false;
            }
            stage(one, StagingRepository.Deadline.NONE);
            return true;
        }));
        assertThat(most).isLessThanOrEqualTo(CAP);
        assertThat(staged()).isEqualTo(CAP);
        assertThat(refused).hasValue(140);
        assertThat(StagingRepository.perPartition(List.of(job("t", null), job("u", null), job("t", 5L)))).isEqualTo(
                Map.of(List.of("t", ""), 2, List.of("u", ""), 1));
    }

    @Test
    void jobsPastTheirDeadlineExpireWaitingOrScheduledAndLeaveTheirPartitionsCounts() {
        tx.inTransaction(() -> {
            stage(List.of(job("e", null), job("e", null), job("e", 60_000L)), new StagingRepository.Deadline(System.currentTimeMillis() - 1, null));
            stage(List.of(job("e", null)), new StagingRepository.Deadline(null, 60_000L));
            return stage(List.of(job("f", null)), StagingRepository.Deadline.NONE);
        });
        assertThat(db.strings("SELECT p.partition_key || ':' || p.pending_count || '/' || p.scheduled_count FROM dispatch.partitions p "
                + "WHERE policy_name = ? ORDER BY 1", POLICY)).containsExactly("e:3/1", "f:1/0");
        Map<String, Integer> expired = tx.inTransaction(() -> discarded.expireDue(1000)).byPolicy();
        assertThat(expired).isEqualTo(Map.of(POLICY, 3));
        assertThat(db.strings("SELECT p.partition_key || ':' || p.pending_count || '/' || p.scheduled_count FROM dispatch.partitions p "
                + "WHERE policy_name = ? ORDER BY 1", POLICY)).containsExactly("e:1/0", "f:1/0");
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE policy_name = ? AND reason = 'expired'", POLICY)).isEqualTo(3);
        assertThat(db.strings("SELECT d.event_type || ' ' || (d.payload->>'policy') || ' ' || (d.payload->>'partitionKey') || ' ' "
                + "|| (d.event_id = 'job.expired:' || (d.payload->>'submissionId')) FROM dispatch.webhook_deliveries d "
                + "JOIN dispatch.discarded_jobs x ON x.submission_id = (d.payload->>'submissionId')::bigint WHERE d.webhook = 'x-expiry'"))
                .as("a webhook's event per expired job, in the expiry's statement")
                .containsExactly("job.expired " + POLICY + " e true", "job.expired " + POLICY + " e true", "job.expired " + POLICY + " e true");
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = ? AND s.expires_at > clock_timestamp() + interval '59 seconds'", POLICY))
                .as("60 s after it is due").isEqualTo(1);
        assertThat(tx.inTransaction(() -> discarded.expireDue(1000)).byPolicy()).isEmpty();
    }
}
