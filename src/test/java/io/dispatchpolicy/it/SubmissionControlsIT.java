package io.dispatchpolicy.it;

import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.SubmissionStatus;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.jobs.JobQuery;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Submission controls (issue 36, ADR 0036) on the deployed engine: uniqueness keys, deadlines, debounce and a
 * backlog cap per partition, each declared in code and changed live from the settings.
 */
class SubmissionControlsIT extends EngineTest {

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Inject
    JobControl jobs;

    private static Properties params(String... pairs) {
        return Params.of(pairs);
    }

    /** {@code threads} callers, each submitting {@code each} jobs one call at a time, released together. */
    private List<Submitted> concurrently(int threads, int each, Function<Integer, Submitted> submitOne) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<Submitted>>> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            callers.add(executor.submit(() -> {
                go.await();
                List<Submitted> mine = new ArrayList<>();
                for (int i = 0; i < each; i++) {
                    mine.add(submitOne.apply(thread * each + i));
                }
                return mine;
            }));
        }
        go.countDown();
        List<Submitted> all = new ArrayList<>();
        for (Future<List<Submitted>> f : callers) {
            all.addAll(f.get());
        }
        return all;
    }

    @Test
    void aThousandConcurrentSubmissionsOfOneKeyStageOneJobAndAfterItsWindowANewOneStages() throws Exception {
        touch("it-unique");
        String order = "o-" + UUID.randomUUID();
        Instant started = Instant.now();
        List<Submitted> all = concurrently(4, 250, i -> dispatch.submitEach("it-unique", List.of(params("tenant", "u", "order", order,
                "sleepMs", "200"))).get(0));
        Duration took = Duration.between(started, Instant.now());
        assertThat(all).hasSize(1000);
        List<Submitted> staged = all.stream().filter(s -> s.outcome() == Submitted.Outcome.STAGED).toList();
        assertThat(staged).as("in %s", took).hasSize(1);
        long holder = staged.get(0).submissionId();
        assertThat(all.stream().filter(s -> s.outcome() == Submitted.Outcome.DUPLICATE).map(Submitted::submissionId))
                .hasSize(999).containsOnly(holder);
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE job_parameters->>'order' = ?", order)).isEqualTo(1);
        assertThat(jobs.life(holder).orElseThrow().key()).isEqualTo("unique order=" + order + " · 999 duplicates absorbed");
        assertThat(jobs.find(new JobQuery(JobQuery.By.KEY, "order=" + order, "it-unique", 0, 10))).extracting(r -> r.submissionId())
                .containsExactly(holder);

        // admitted and running: still its key's
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        assertThat(submitOrder(order)).isEqualTo(new Submitted(holder, Submitted.Outcome.DUPLICATE));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> "COMPLETED".equals(statusOf(holder)));
        Instant completedBy = Instant.now();
        // completed: its key's for 2 s after its end, then free
        assertThat(submitOrder(order)).as("completed less than 2 s ago").isEqualTo(new Submitted(holder, Submitted.Outcome.DUPLICATE));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> submitOrder(order).outcome() == Submitted.Outcome.STAGED);
        assertThat(Duration.between(completedBy, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(1_800));
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE job_parameters->>'order' = ?", order)).isEqualTo(1);
    }

    private Submitted submitOrder(String order) {
        return dispatch.submitEach("it-unique", List.of(params("tenant", "u", "order", order))).get(0);
    }

    private String statusOf(long submission) {
        SubmissionStatus s = dispatch.status(submission);
        return s.executionId().isPresent() ? db.batchStatus(s.executionId().getAsLong()) : s.state().name();
    }

    @Test
    void aBulkCallOfTenThousandWithAHundredKeysStagesAHundredAndSaysWhichWereDuplicates() {
        touch("it-unique");
        String run = UUID.randomUUID().toString();
        List<Properties> bulk = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            bulk.add(params("tenant", "b" + (i % 7), "order", run + "-" + (i % 100)));
        }
        List<Submitted> each = dispatch.submitEach("it-unique", bulk);
        assertThat(each.stream().filter(s -> s.outcome() == Submitted.Outcome.STAGED)).hasSize(100);
        assertThat(each.stream().filter(s -> s.outcome() == Submitted.Outcome.DUPLICATE)).hasSize(9_900);
        for (int i = 0; i < 100; i++) {
            assertThat(each.get(i).outcome()).as("the first of each key is staged").isEqualTo(Submitted.Outcome.STAGED);
            assertThat(each.get(i + 100)).isEqualTo(new Submitted(each.get(i).submissionId(), Submitted.Outcome.DUPLICATE));
        }
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE job_parameters->>'order' LIKE ?", run + "-%")).isEqualTo(100);
        assertThat(db.count("SELECT sum(absorbed) FROM dispatch.submission_keys WHERE key LIKE ?", "order=" + run + "-%")).isEqualTo(9_900);
        // a second call of the same keys: all duplicates, nothing staged
        assertThat(dispatch.submitEach("it-unique", bulk.subList(0, 300))).allMatch(s -> s.outcome() == Submitted.Outcome.DUPLICATE);
        // the caller's key goes before the policy's: one for the whole call
        String own = "own-" + run;
        long[] ids = dispatch.submitAll("it-unique", bulk.subList(0, 5), SubmitOption.unique(own));
        assertThat(java.util.Arrays.stream(ids).distinct().count()).isEqualTo(1);
    }

    @Test
    void aJobNotAdmittedByItsDeadlineExpiresAndNeverRunsWhileOneAdmittedInTimeRuns() {
        touch("it-deadline");
        long[] blocker = stage("it-deadline", "held", 1, "sleepMs", "5000");
        assertThat(ticks.iterate().admitted()).isEqualTo(1);
        Instant submitted = Instant.now();
        long late = dispatch.submit("it-deadline", params("tenant", "held"), SubmitOption.expireAfter(Duration.ofSeconds(2)));
        long inTime = dispatch.submit("it-deadline", params("tenant", "free"), SubmitOption.expireAfter(Duration.ofSeconds(10)));
        assertThat(ticks.iterate().admitted()).as("the free tenant's, in time; the held one's partition is full").isEqualTo(1);
        assertThat(dispatch.status(inTime).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        AtomicLong expiredAfter = new AtomicLong();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ticks.iterate();
            SubmissionStatus s = dispatch.status(late);
            if (s.state() == SubmissionStatus.State.EXPIRED) {
                expiredAfter.set(Duration.between(submitted, s.since()).toMillis());
                return true;
            }
            return false;
        });
        assertThat(expiredAfter.get()).as("expired at 2 s + one tick (ticks every 50 ms here)").isBetween(2_000L, 2_600L);
        assertThat(dispatch.status(late).executionId()).as("it never ran").isEmpty();
        assertThat(dispatch.status(blocker[0]).state()).isEqualTo(SubmissionStatus.State.ADMITTED);
        assertThat(db.count("SELECT pending_count + scheduled_count FROM dispatch.partitions WHERE policy_name = 'it-deadline' "
                + "AND partition_key = 'held'")).isZero();
        assertThat(jobs.life(late).orElseThrow().discarded()).startsWith("expired ").contains("not admitted by its deadline");
        assertThat(jobs.find(new JobQuery(JobQuery.By.PARTITION, "held", "it-deadline", 0, 10))).extracting(r -> r.state())
                .contains("EXPIRED");
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(statusOf(inTime)));

        // the policy's deadline, set live; and one past before it is due is refused
        set("dispatch.policy.it-deadline.expire-after", "0.5");
        long live = dispatch.submit("it-deadline", params("tenant", "held"));
        assertThat(db.count("SELECT count(*) FROM dispatch.staged_jobs WHERE id = ? AND expires_at < staged_at + interval '501 milliseconds'",
                live)).isEqualTo(1);
        assertThatThrownBy(() -> dispatch.submit("it-deadline", params("tenant", "held"), SubmitOption.delay(Duration.ofMinutes(5)),
                SubmitOption.deadline(Instant.now().plusSeconds(60))))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("is not after the job is due");
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(statusOf(blocker[0])));
    }

    @Test
    void submissionsEverySecondForTenSecondsMakeTwoExecutionsEachWithTheLastParametersOfItsWindow() throws Exception {
        touch("it-debounce");
        letTheNodeTick();
        String tenant = "d-" + UUID.randomUUID();
        Instant first = Instant.now();
        Map<Long, Integer> lastSeqOf = new java.util.HashMap<>();
        for (int seq = 0; seq < 10; seq++) {
            Instant at = first.plusSeconds(seq);
            long wait = Duration.between(Instant.now(), at).toMillis();
            if (wait > 0) {
                Thread.sleep(wait); // the scenario: one submission a second
            }
            Submitted s = dispatch.submitEach("it-debounce", List.of(params("tenant", tenant, "seq", Integer.toString(seq)))).get(0);
            lastSeqOf.put(s.submissionId(), seq);
        }
        assertThat(lastSeqOf).as("two bursts, two submissions").hasSize(2);
        List<Long> ids = lastSeqOf.keySet().stream().sorted().toList();
        await().atMost(Duration.ofSeconds(30)).until(() -> ids.stream().allMatch(id -> "COMPLETED".equals(statusOf(id))));
        for (long id : ids) {
            String params = db.strings("SELECT e.jobparameters FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id "
                    + "WHERE a.submission_id = ?", id).get(0);
            assertThat(params).as("execution of %s", id).contains("seq = " + lastSeqOf.get(id));
        }
        List<Long> startedAfter = ids.stream().map(id -> Duration.between(first, dispatch.status(id).since()).toMillis()).toList();
        assertThat(startedAfter.get(0)).as("the first burst: at most 5 s after its first submission").isBetween(4_500L, 6_500L);
        assertThat(startedAfter.get(1)).as("the second burst: 5 s after its first (at 5 s)").isBetween(9_500L, 12_500L);
        assertThat(db.count("SELECT count(*) FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id "
                + "WHERE a.job_name = 'it-debounce' AND e.jobparameters LIKE ?", "%tenant = " + tenant + "%")).isEqualTo(2);
    }

    @Test
    void aBacklogCapOfAHundredUnderFourConcurrentSubmittersWithEachOverflow() throws Exception {
        touch("it-backlog");
        // reject
        String tenant = "r-" + UUID.randomUUID();
        AtomicLong refused = new AtomicLong();
        long most = sampling(tenant, () -> concurrently(4, 40, i -> {
            try {
                return dispatch.submitEach("it-backlog", List.of(params("tenant", tenant))).get(0);
            } catch (SubmissionRejectedException e) {
                assertThat(e.getMessage()).contains("partition '" + tenant + "'").contains("backlog cap is 100");
                refused.incrementAndGet();
                return null;
            }
        }));
        assertThat(most).isLessThanOrEqualTo(100);
        assertThat(stagedOf(tenant)).isEqualTo(100);
        assertThat(refused).hasValue(60);
        assertThatThrownBy(() -> stage("it-backlog", "bulk-" + tenant, 101)).isInstanceOf(SubmissionRejectedException.class);
        assertThat(stagedOf("bulk-" + tenant)).as("a call is refused whole").isZero();

        // drop-oldest, set live
        set("dispatch.policy.it-backlog.backlog-overflow", "drop-oldest");
        String dropping = "d-" + UUID.randomUUID();
        List<Submitted> submitted = new ArrayList<>();
        most = sampling(dropping, () -> submitted.addAll(concurrently(4, 40, i ->
                dispatch.submitEach("it-backlog", List.of(params("tenant", dropping))).get(0))));
        assertThat(most).isLessThanOrEqualTo(100);
        assertThat(stagedOf(dropping)).isEqualTo(100);
        List<Long> sorted = submitted.stream().map(Submitted::submissionId).sorted().toList();
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE partition_key = ? AND reason = 'dropped' AND submission_id = ANY(?)",
                dropping, (Object) sorted.subList(0, 60).toArray(new Long[0]))).as("the 60 oldest").isEqualTo(60);
        assertThat(dispatch.status(sorted.get(0)).state()).isEqualTo(SubmissionStatus.State.DISCARDED);

        // keep-newest: 160 submissions, each at the cap replaces the 100 before it: 60 left
        set("dispatch.policy.it-backlog.backlog-overflow", "keep-newest");
        String keeping = "k-" + UUID.randomUUID();
        most = sampling(keeping, () -> concurrently(4, 40, i -> dispatch.submitEach("it-backlog", List.of(params("tenant", keeping))).get(0)));
        assertThat(most).isLessThanOrEqualTo(100);
        assertThat(stagedOf(keeping)).isEqualTo(60);
        assertThat(db.count("SELECT count(*) FROM dispatch.discarded_jobs WHERE partition_key = ? AND reason = 'replaced'", keeping)).isEqualTo(100);

        // a bad value written live: reported, the declared cap holds
        set("dispatch.policy.it-backlog.backlog-cap", "0");
        set("dispatch.policy.it-backlog.backlog-overflow", "reject");
        assertThatThrownBy(() -> stage("it-backlog", tenant, 1)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("backlog cap is 100");
    }

    private long stagedOf(String tenant) {
        return db.count("SELECT count(*) FROM dispatch.staged_jobs s JOIN dispatch.partitions p ON p.id = s.partition_id "
                + "WHERE p.policy_name = 'it-backlog' AND p.partition_key = ?", tenant);
    }

    /** Runs the submitters while sampling the partition's staged jobs; @return the most sampled. */
    private long sampling(String tenant, java.util.concurrent.Callable<?> submitters) throws Exception {
        AtomicBoolean on = new AtomicBoolean(true);
        AtomicLong most = new AtomicLong();
        Future<?> sampler = executor.submit(() -> {
            while (on.get()) {
                most.accumulateAndGet(stagedOf(tenant), Math::max);
            }
        });
        try {
            submitters.call();
        } finally {
            on.set(false);
            sampler.get();
        }
        return most.get();
    }

    @Test
    void badControlsAreRefusedAtTheBoundary() {
        assertThatThrownBy(() -> SubmitOption.unique(" ")).isInstanceOf(SubmissionRejectedException.class)
                .hasMessage("SubmitOption.unique: the key must not be empty");
        assertThatThrownBy(() -> SubmitOption.unique("k", Duration.ofSeconds(-1))).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("the window must be more than 0");
        assertThatThrownBy(() -> SubmitOption.debounce("k", Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("maxWait must be at least the period");
        assertThatThrownBy(() -> SubmitOption.expireAfter(Duration.ZERO)).isInstanceOf(SubmissionRejectedException.class)
                .hasMessageContaining("SubmitOption.expireAfter: must be more than 0");
        assertThatThrownBy(() -> dispatch.submit("it-unique", params("tenant", "x"), SubmitOption.unique("a"),
                SubmitOption.debounce("b", Duration.ofSeconds(1), Duration.ofSeconds(1))))
                .isInstanceOf(SubmissionRejectedException.class).hasMessageContaining("either unique or debounced");
        assertThatThrownBy(() -> io.dispatchpolicy.spi.Policy.named("p").governs("j").partitionBy(c -> "k")
                .backlogCap(0, io.dispatchpolicy.spi.BacklogCap.Overflow.REJECT))
                .isInstanceOf(io.dispatchpolicy.spi.PolicyDeclarationException.class).hasMessageContaining("at least 1");
        assertThat(dispatch.status(Long.MAX_VALUE - 1).state()).isEqualTo(SubmissionStatus.State.UNKNOWN);
    }
}
