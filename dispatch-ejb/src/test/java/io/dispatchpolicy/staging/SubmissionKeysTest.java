package io.dispatchpolicy.staging;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Uniqueness and debounce keys (ADR 0036) against the engine's test database, each claim in a transaction of
 * its own as a submission's is: the database decides between concurrent submitters, a key is held while its
 * holder is in a covered state and taken over in place once it is not.
 */
class SubmissionKeysTest {

    private static final String POLICY = "it-keys";
    private static final SubmissionKeys.Terms WHILE_LIVE = new SubmissionKeys.Terms(3, null, null);
    private final Jdbc plain = EngineDatabase.jdbc();
    private final Transactions tx = new Transactions(plain.dataSource());
    private final PlanDatabase db = new PlanDatabase(tx.jdbc());
    private final SubmissionKeys keys = new SubmissionKeys();
    private long partition;

    @BeforeEach
    void aPartition() {
        keys.jdbc = tx.jdbc();
        partition = db.count("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES (?, 'a', '{}') RETURNING id", POLICY);
    }

    @AfterEach
    void removeIt() {
        db.update("DELETE FROM dispatch.staged_jobs WHERE partition_id = ?", partition);
        db.update("DELETE FROM dispatch.admissions WHERE partition_id = ?", partition);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
        db.update("DELETE FROM dispatch.submission_keys WHERE policy_name = ?", POLICY);
    }

    /** A submission as staging makes it: its key claimed, and when won its job staged, in one transaction. */
    private SubmissionKeys.Claim submit(String key, SubmissionKeys.Terms terms) {
        return tx.inTransaction(() -> {
            SubmissionKeys.Claim claim = keys.claimUnique(POLICY, List.of(key), Map.of(), terms).get(key);
            if (claim.won()) {
                stage(claim.submissionId(), null);
            }
            return claim;
        });
    }

    private void stage(long id, String dueIn) {
        db.update("INSERT INTO dispatch.staged_jobs (id, partition_id, job_name, job_parameters, due_at) VALUES (?, ?, 'j', '{}', "
                + (dueIn == null ? "NULL" : "clock_timestamp() + interval '" + dueIn + "'") + ")", id, partition);
    }

    @Test
    void eightConcurrentSubmittersOfOneKeyStageOneJobAndTheOther999GetItsId() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<SubmissionKeys.Claim>>> workers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            int n = 125;
            workers.add(pool.submit(() -> {
                go.await();
                List<SubmissionKeys.Claim> mine = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    mine.add(submit("order-42", WHILE_LIVE));
                }
                return mine;
            }));
        }
        go.countDown();
        List<SubmissionKeys.Claim> all = new ArrayList<>();
        for (Future<List<SubmissionKeys.Claim>> f : workers) {
            all.addAll(f.get());
        }
        pool.shutdown();
        assertThat(all).hasSize(1000);
        assertThat(all.stream().filter(SubmissionKeys.Claim::won)).hasSize(1);
        long holder = all.stream().filter(SubmissionKeys.Claim::won).findFirst().orElseThrow().submissionId();
        assertThat(all.stream().filter(c -> !c.won()).map(SubmissionKeys.Claim::submissionId)).hasSize(999).containsOnly(holder);
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE partition_id = ?", partition)).isEqualTo(1);
        assertThat(db.count("SELECT absorbed FROM dispatch.submission_keys WHERE policy_name = ? AND key = 'order-42'", POLICY))
                .isEqualTo(999);
    }

    @Test
    void aKeyWhoseHolderIsGoneIsTakenOverInPlaceUnderANewId() {
        SubmissionKeys.Claim first = submit("k", WHILE_LIVE);
        assertThat(submit("k", WHILE_LIVE)).isEqualTo(new SubmissionKeys.Claim(first.submissionId(), false));
        db.update("DELETE FROM dispatch.staged_jobs WHERE id = ?", first.submissionId()); // discarded, or admitted and ended
        SubmissionKeys.Claim second = submit("k", WHILE_LIVE);
        assertThat(second.won()).isTrue();
        assertThat(second.submissionId()).isGreaterThan(first.submissionId());
        assertThat(db.count("SELECT count(*) FROM dispatch.submission_keys WHERE policy_name = ?", POLICY)).isEqualTo(1);
        assertThat(db.count("SELECT absorbed FROM dispatch.submission_keys WHERE policy_name = ?", POLICY)).as("reset").isZero();
    }

    @Test
    void aRunningHolderHoldsItsKeyAndACompletedOneOnlyWithinItsWindow() {
        SubmissionKeys.Terms withinAMinute = new SubmissionKeys.Terms(7, 60_000L, null);
        SubmissionKeys.Claim first = submit("w", withinAMinute);
        long execution = 900_000_000L + (first.submissionId() % 1_000_000);
        // admitted: the staged row goes, an admission and an in-flight row come
        db.update("DELETE FROM dispatch.staged_jobs WHERE id = ?", first.submissionId());
        db.update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at) VALUES (?, ?, ?, now())",
                first.submissionId(), execution, partition);
        db.update("INSERT INTO dispatch.inflight_jobs (execution_id, submission_id, partition_id, node_id, admitted_at) "
                + "VALUES (?, ?, ?, gen_random_uuid(), now())", execution, first.submissionId(), partition);
        assertThat(submit("w", withinAMinute).won()).as("running").isFalse();
        long instance = db.count("INSERT INTO job_instance (jobname) VALUES ('j') RETURNING jobinstanceid");
        db.update("INSERT INTO job_execution (jobexecutionid, jobinstanceid, createtime, batchstatus, endtime) "
                + "VALUES (?, ?, now(), 'COMPLETED', now() - interval '30 seconds')", execution, instance);
        db.update("DELETE FROM dispatch.inflight_jobs WHERE execution_id = ?", execution);
        assertThat(submit("w", withinAMinute).won()).as("completed 30 s ago, window 60 s").isFalse();
        assertThat(submit("w", WHILE_LIVE).won()).as("a key's terms are its holder's: still held").isFalse();
        db.update("UPDATE job_execution SET endtime = now() - interval '61 seconds' WHERE jobexecutionid = ?", execution);
        SubmissionKeys.Claim after = submit("w", withinAMinute);
        assertThat(after.won()).as("the window has passed").isTrue();
        db.update("UPDATE job_execution SET endtime = now(), batchstatus = 'FAILED' WHERE jobexecutionid = ?", execution);
        db.update("DELETE FROM job_execution WHERE jobexecutionid = ?", execution);
        db.update("DELETE FROM job_instance WHERE jobinstanceid = ?", instance);
    }

    @Test
    void aCallsOwnDuplicatesAreAbsorbedByWhicheverSubmissionHoldsTheKey() {
        Map<String, SubmissionKeys.Claim> claims = tx.inTransaction(() -> {
            Map<String, SubmissionKeys.Claim> c = keys.claimUnique(POLICY, List.of("b", "a", "c"), Map.of("a", 4, "b", 1), WHILE_LIVE);
            c.values().forEach(claim -> stage(claim.submissionId(), null));
            return c;
        });
        assertThat(claims.values()).allMatch(SubmissionKeys.Claim::won);
        assertThat(claims.get("b").submissionId()).as("ids in the call's order").isLessThan(claims.get("a").submissionId());
        assertThat(claims.get("a").submissionId()).isLessThan(claims.get("c").submissionId());
        Map<String, SubmissionKeys.Claim> again = tx.inTransaction(() -> keys.claimUnique(POLICY, List.of("a", "d"), Map.of("a", 2), WHILE_LIVE));
        assertThat(again.get("a")).isEqualTo(new SubmissionKeys.Claim(claims.get("a").submissionId(), false));
        assertThat(again.get("d").won()).isTrue();
        assertThat(db.strings("SELECT key || '=' || absorbed FROM dispatch.submission_keys WHERE policy_name = ? ORDER BY key", POLICY))
                .containsExactly("a=7", "b=1", "c=0", "d=0");
    }

    @Test
    void aDebouncedJobTakesTheNewestParametersAndIsPushedBackNeverPastItsLongestWait() {
        SubmissionKeys.Terms wait5s = new SubmissionKeys.Terms(0, null, 5_000L);
        SubmissionKeys.Claim first = tx.inTransaction(() -> {
            SubmissionKeys.Claim c = keys.claimDebounce(POLICY, "d", "{\"v\":\"1\"}", 2_000, "a", "", wait5s, null, null);
            stage(c.submissionId(), "2 seconds");
            return c;
        });
        assertThat(first.won()).isTrue();
        SubmissionKeys.Claim second = tx.inTransaction(() -> keys.claimDebounce(POLICY, "d", "{\"v\":\"2\"}", 4_000, "a", "", wait5s, null, 10_000L));
        assertThat(second).isEqualTo(new SubmissionKeys.Claim(first.submissionId(), false));
        assertThat(db.strings("SELECT job_parameters->>'v' FROM dispatch.staged_jobs WHERE id = ?", first.submissionId())).containsExactly("2");
        long dueInMs = db.count("SELECT (extract(epoch FROM due_at - clock_timestamp()) * 1000)::bigint FROM dispatch.staged_jobs WHERE id = ?",
                first.submissionId());
        assertThat(dueInMs).as("pushed to 4 s from now").isBetween(3_000L, 4_000L);
        assertThat(db.count("SELECT (extract(epoch FROM expires_at - due_at) * 1000)::bigint FROM dispatch.staged_jobs WHERE id = ?",
                first.submissionId())).as("its deadline the newest submission's: 10 s after its new due time").isEqualTo(10_000L);
        SubmissionKeys.Claim capped = tx.inTransaction(() -> keys.claimDebounce(POLICY, "d", "{\"v\":\"3\"}", 60_000, "a", "", wait5s, null, null));
        assertThat(capped.won()).isFalse();
        long cappedMs = db.count("SELECT (extract(epoch FROM due_at - k.held_since) * 1000)::bigint FROM dispatch.staged_jobs s "
                + "JOIN dispatch.submission_keys k ON k.submission_id = s.id WHERE s.id = ?", first.submissionId());
        assertThat(cappedMs).as("never past the first submission + 5 s").isEqualTo(5_000L);
        SubmissionKeys.Claim elsewhere = tx.inTransaction(() -> keys.claimDebounce(POLICY, "d", "{}", 2_000, "b", "", wait5s, null, null));
        assertThat(elsewhere.won()).as("a submission for another partition takes the key over").isTrue();
        db.update("UPDATE dispatch.staged_jobs SET due_at = NULL WHERE id = ?", first.submissionId());
        SubmissionKeys.Claim due = tx.inTransaction(() -> keys.claimDebounce(POLICY, "d", "{}", 2_000, "a", "", wait5s, null, null));
        assertThat(due.won()).as("its holder (the other partition's) was never staged here").isTrue();
    }
}
