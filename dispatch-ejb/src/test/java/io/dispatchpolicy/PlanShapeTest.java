package io.dispatchpolicy;

import io.dispatchpolicy.console.jobs.JobQuery;
import io.dispatchpolicy.console.jobs.JobsRepository;
import io.dispatchpolicy.infrastructure.jberet.JobRepositoryIndexes;
import io.dispatchpolicy.infrastructure.persistence.EngineDatabase;
import io.dispatchpolicy.infrastructure.persistence.PlanDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The O(batch) claim, shown by the plans PostgreSQL runs (ADR 0009): with a deep partition of waiting
 * jobs at mixed priorities, many partitions, jobs scheduled for later and jobs aging, the engine's own
 * statements read their limit off an index — never the backlog. Asserts plan shape (index, rows read),
 * not time. Against the engine's test database (no server): the statements are the engine's own constants,
 * and the plans are PostgreSQL's.
 */
class PlanShapeTest {

    private static final String POLICY = "it-plan"; // declared by nobody: no tick touches it
    private static final int DEEP = 20_000;

    private static long deep;

    private static final PlanDatabase db = new PlanDatabase(EngineDatabase.jdbc());
    private final JobRepositoryIndexes repositoryIndexes = JobRepositoryIndexes.over(EngineDatabase.jdbc());

    /**
     * The backlog, staged once for the class (each test's own additions are taken back after it): 40,000 rows
     * and their statistics made for every test was most of this class's minute.
     */
    @BeforeAll
    static void stageABacklog() {
        removeIt();
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, context, pending_count, top_priority) "
                + "SELECT ?, 'p' || g, '{}'::jsonb, 10, CASE WHEN g % 50 = 0 THEN 5 ELSE 0 END FROM generate_series(1, 2000) g", POLICY);
        deep = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'p1'", POLICY);
        db.update("UPDATE dispatch.partitions SET pending_count = ? WHERE id = ?", DEEP, deep);
        // the deep partition's waiting jobs, one in ten at priority 5, all aging in ten minutes
        db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, priority, next_age_at, "
                + "age_every_ms, age_step, age_cap) SELECT ?, 'it-plan', '{}'::jsonb, CASE WHEN g % 10 = 0 THEN 5 ELSE 0 END, "
                + "now() + interval '10 minutes', 600000, 1, 10 FROM generate_series(1, ?) g", deep, DEEP);
        // as many scheduled an hour ahead in another partition
        long later = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'p2'", POLICY);
        db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, due_at, next_age_at, age_every_ms, "
                + "age_step, age_cap) SELECT ?, 'it-plan', '{}'::jsonb, now() + interval '1 hour', now() + interval '70 minutes', "
                + "600000, 1, 10 FROM generate_series(1, ?) g", later, DEEP);
        db.update("ANALYZE dispatch.staged_jobs");
        db.update("ANALYZE dispatch.partitions");
    }

    /** What a test added to the backlog (staged rows that do not age, lane rows, shards) goes, and the statistics are the backlog's again. */
    @AfterEach
    void takeBackWhatTheTestAdded() {
        int staged = db.update("DELETE FROM dispatch.staged_jobs s USING dispatch.partitions p WHERE s.partition_id = p.id "
                + "AND p.policy_name = ? AND s.age_every_ms IS NULL", POLICY);
        int partitions = db.update("DELETE FROM dispatch.partitions WHERE policy_name = ? AND lane <> ''", POLICY)
                + db.update("UPDATE dispatch.partitions SET shard = '' WHERE policy_name = ? AND shard <> ''", POLICY);
        if (staged > 0) {
            db.update("ANALYZE dispatch.staged_jobs");
        }
        if (partitions > 0) {
            db.update("ANALYZE dispatch.partitions");
        }
    }

    @AfterAll
    static void removeIt() {
        db.update("DELETE FROM dispatch.staged_jobs s USING dispatch.partitions p WHERE s.partition_id = p.id AND p.policy_name = ?",
                POLICY);
        db.update("DELETE FROM dispatch.partitions WHERE policy_name = ?", POLICY);
    }

    @Test
    void theClaimReadsItsBatchOffTheClaimIndex() {
        List<JsonObject> scans = scans(db.explainAndRollBack(io.dispatchpolicy.tick.Claims.CLAIM_SQL, 50));
        // (the UPDATE's join back to the 50 claimed rows may hash a table this small; at scale it uses
        // the primary key — docs/benchmarks.md — and either way it is not the claim's read)
        JsonObject claim = only(scans, "partitions_claim_idx");
        assertThat(read(claim)).as("rows the claim read for a batch of 50 among 2,000 partitions").isLessThanOrEqualTo(200);
    }

    @Test
    void aLanesClaimReadsItsBatchOffTheLaneClaimIndex() {
        // the same 2,000 partitions once more, as rows of lane 'bulk' (a policy nobody declares)
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, lane, context, pending_count, top_priority) "
                + "SELECT ?, 'p' || g, 'bulk', '{}'::jsonb, 10, CASE WHEN g % 50 = 0 THEN 5 ELSE 0 END "
                + "FROM generate_series(1, 2000) g", POLICY);
        db.update("ANALYZE dispatch.partitions");
        List<JsonObject> scans = scans(db.explainAndRollBack(io.dispatchpolicy.tick.Claims.CLAIM_LANE_SQL, POLICY, "bulk", 50));
        JsonObject claim = only(scans, "partitions_lane_claim_idx");
        assertThat(read(claim)).as("rows the lane's claim read for a batch of 50 among 2,000").isLessThanOrEqualTo(200);
        // and the claim outside lanes reads none of them
        JsonObject outside = only(scans(db.explainAndRollBack(io.dispatchpolicy.tick.Claims.CLAIM_SQL, 50)), "partitions_claim_idx");
        assertThat(read(outside)).isLessThanOrEqualTo(200);
    }

    @Test
    void aShardsClaimReadsItsBatchOffTheShardIndexHoweverBigTheOtherShards() {
        // 1,990 of the 2,000 partitions in shard 'big', 10 in 'small', none unsharded (ADR 0014)
        db.update("UPDATE dispatch.partitions SET shard = CASE WHEN partition_key IN ('p3', 'p4', 'p5', 'p6', 'p7', 'p8', "
                + "'p9', 'p10', 'p11', 'p12') THEN 'small' ELSE 'big' END WHERE policy_name = ?", POLICY);
        db.update("ANALYZE dispatch.partitions");
        JsonObject small = only(scans(db.explainAndRollBack(io.dispatchpolicy.tick.Claims.CLAIM_SHARD_SQL, "small", 50)),
                "partitions_shard_claim_idx");
        assertThat(read(small)).as("rows the claim of a shard of 10 read").isLessThanOrEqualTo(10);
        // a shard holding nearly every partition may be read off either claim index: a batch either way
        List<JsonObject> big = scans(db.explainAndRollBack(io.dispatchpolicy.tick.Claims.CLAIM_SHARD_SQL, "big", 50)).stream()
                .filter(scan -> scan.getString("Index Name", "").endsWith("claim_idx")).toList();
        assertThat(big).hasSize(1);
        assertThat(read(big.get(0))).as("rows the claim of a shard of 1,990 read for a batch of 50").isLessThanOrEqualTo(200);
        // and the plan the server may cache for the prepared statement, not knowing which shard, is the shard index's
        assertThat(scans(db.explainGeneric(io.dispatchpolicy.tick.Claims.CLAIM_SHARD_SQL, "'small', 50")))
                .filteredOn(scan -> scan.getString("Index Name", "").endsWith("claim_idx"))
                .extracting(scan -> scan.getString("Index Name")).containsExactly("partitions_shard_claim_idx");
        // a lane's rows of one shard, among as many of another
        db.update("INSERT INTO dispatch.partitions (policy_name, partition_key, lane, context, pending_count, shard) "
                + "SELECT ?, 'p' || g, 'bulk', '{}'::jsonb, 10, CASE WHEN g <= 5 THEN 'small' ELSE 'big' END "
                + "FROM generate_series(1, 2000) g", POLICY);
        db.update("ANALYZE dispatch.partitions");
        JsonObject lane = only(scans(db.explainAndRollBack(io.dispatchpolicy.tick.Claims.CLAIM_LANE_SHARD_SQL, POLICY, "bulk", "small", 50)),
                "partitions_shard_lane_claim_idx");
        assertThat(read(lane)).as("rows the claim of a lane's shard of 5 read").isLessThanOrEqualTo(5);
        assertThat(scans(db.explainGeneric(io.dispatchpolicy.tick.Claims.CLAIM_LANE_SHARD_SQL, "'it-plan', 'bulk', 'small', 50")))
                .filteredOn(scan -> scan.getString("Index Name", "").endsWith("claim_idx"))
                .extracting(scan -> scan.getString("Index Name")).containsExactly("partitions_shard_lane_claim_idx");
    }

    @Test
    void admissionTakesItsBatchOffTheTopOfTheAdmitIndex() {
        List<JsonObject> scans = scans(db.explainAndRollBack(io.dispatchpolicy.admission.AdmissionTake.TAKE_SQL, new Long[] {deep}, new Integer[] {100},
                new Integer[] {100}));
        JsonObject take = only(scans, "staged_jobs_admit_idx");
        assertThat(read(take)).isLessThanOrEqualTo(100);
        // a batch of 100 jobs with 2 slots (a round's share): two rows read and locked, not a batch (ADR 0035)
        JsonObject share = only(scans(db.explainAndRollBack(io.dispatchpolicy.admission.AdmissionTake.TAKE_SQL, new Long[] {deep},
                new Integer[] {100}, new Integer[] {2})), "staged_jobs_admit_idx");
        assertThat(read(share)).as("rows the take of 2 slots read").isLessThanOrEqualTo(2);
        // a group of partitions admitted together (ADR 0016): each read to its own limit, the scheduled
        // partition's 20,000 rows not at all
        long later = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'p2'", POLICY);
        long empty = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'p3'", POLICY);
        JsonObject group = only(scans(db.explainAndRollBack(io.dispatchpolicy.admission.AdmissionTake.TAKE_SQL, new Long[] {deep, later, empty},
                new Integer[] {3, 3, 3}, new Integer[] {3, 3, 3})), "staged_jobs_admit_idx");
        assertThat(read(group)).as("rows the take of three partitions, three each, read").isLessThanOrEqualTo(3);
    }

    @Test
    void aTakeOfManyPartitionsDeletesItsRowsByTheirKeys() {
        // the node's room shared out (ADR 0027): one job each from 50 partitions. Joined to the picked rows
        // as a table, the DELETE was planned for 50 x 30 rows and hashed the whole staged table for them
        // (a sequential scan of every waiting job, per take: run 31 in docs/benchmarks.md)
        Long[] partitions = db.strings("SELECT id::text FROM dispatch.partitions WHERE policy_name = ? ORDER BY id LIMIT 50", POLICY)
                .stream().map(Long::valueOf).toArray(Long[]::new);
        Integer[] ones = java.util.Collections.nCopies(partitions.length, 1).toArray(Integer[]::new);
        db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters) "
                + "SELECT p, 'it-plan', '{}'::jsonb FROM unnest(?::bigint[]) p", (Object) partitions);
        db.update("ANALYZE dispatch.staged_jobs");
        List<JsonObject> scans = scans(db.explainAndRollBack(io.dispatchpolicy.admission.AdmissionTake.TAKE_SQL, partitions, ones, ones));
        assertThat(scans).noneMatch(s -> s.getString("Node Type").equals("Seq Scan"));
        assertThat(scans).allMatch(s -> read(s) <= 50, "reads no more rows than it takes");
    }

    @Test
    void promotionAndAgingReadOnlyWhatIsDue() {
        // nothing is due: both must read nothing, however many rows wait for a later time
        for (String sql : List.of(io.dispatchpolicy.tick.DueJobs.PROMOTE_SQL, io.dispatchpolicy.tick.DueJobs.AGE_SQL)) {
            List<JsonObject> scans = scans(db.explainAndRollBack(sql, 10_000));
            assertThat(scans).as(sql).noneMatch(s -> s.getString("Node Type").equals("Seq Scan")
                    && s.getString("Relation Name", "").equals("staged_jobs"));
            assertThat(scans).as(sql).allMatch(s -> read(s) <= 10, "reads no row that is not due");
        }
    }

    @Test
    void theBypassReadIgnoresOrdinaryJobsThatAreDue() {
        // 1,000 ordinary jobs due but not promoted yet: the iteration's read of due bypassing restarts reads none of them
        long deep = db.count("SELECT id FROM dispatch.partitions WHERE policy_name = ? AND partition_key = 'p1'", POLICY);
        db.update("INSERT INTO dispatch.staged_jobs (partition_id, job_name, job_parameters, due_at) "
                + "SELECT ?, 'it-plan', '{}'::jsonb, now() - interval '1 minute' FROM generate_series(1, 1000)", deep);
        db.update("ANALYZE dispatch.staged_jobs");
        List<JsonObject> scans = scans(db.explainAndRollBack(io.dispatchpolicy.tick.DueJobs.BYPASSED_SQL, null, null, 100));
        JsonObject bypassed = only(scans, "staged_jobs_bypass_idx");
        assertThat(read(bypassed)).isZero();
    }

    /** Rows a scan produced plus rows it read and filtered away. */
    private static long read(JsonObject scan) {
        return scan.getJsonNumber("Actual Rows").longValue() * scan.getJsonNumber("Actual Loops").longValue()
                + (scan.containsKey("Rows Removed by Filter") ? scan.getJsonNumber("Rows Removed by Filter").longValue() : 0);
    }

    private static JsonObject only(List<JsonObject> scans, String index) {
        List<JsonObject> on = scans.stream().filter(s -> index.equals(s.getString("Index Name", ""))).toList();
        assertThat(on).as("scans of " + index + " in " + scans).hasSize(1);
        return on.get(0);
    }

    /** Every scan node of a JSON plan. */
    private static List<JsonObject> scans(String json) {
        List<JsonObject> found = new ArrayList<>();
        JsonArray plans = Json.createReader(new StringReader(json)).readArray();
        collect(plans.getJsonObject(0).getJsonObject("Plan"), found);
        return found;
    }

    private static void collect(JsonObject node, List<JsonObject> found) {
        if (node.getString("Node Type").endsWith("Scan") && node.containsKey("Relation Name")) {
            found.add(node);
        }
        if (node.containsKey("Plans")) {
            for (JsonValue child : node.getJsonArray("Plans")) {
                collect(child.asJsonObject(), found);
            }
        }
    }

    /**
     * The Jobs view among 100,000 executions (issue 15): each key's page is read off an index — the
     * admitted side never scans the admissions or JBeret's tables.
     */
    @Test
    void theJobsViewReadsAPageOffIndexesAmongAHundredThousandExecutions() {
        repositoryIndexes.ensure();
        db.update("INSERT INTO job_instance (version, jobname, applicationname) SELECT 1, 'plan-job-' || (g % 100), 'plan' "
                + "FROM generate_series(1, 100000) g");
        db.update("INSERT INTO job_execution (jobinstanceid, version, createtime, batchstatus, exitstatus, jobparameters) "
                + "SELECT jobinstanceid, 1, now(), 'COMPLETED', 'COMPLETED', 'tenant = t' || (jobinstanceid % 1000) || E'\\n' "
                + "|| 'order = plan-' || jobinstanceid || E'\\n' FROM job_instance WHERE applicationname = 'plan'");
        db.update("INSERT INTO dispatch.admissions (submission_id, execution_id, partition_id, admitted_at) "
                + "SELECT 9000000000000000 + e.jobexecutionid, e.jobexecutionid, p.id, now() FROM job_execution e "
                + "JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid AND i.applicationname = 'plan' "
                + "JOIN dispatch.partitions p ON p.policy_name = ? AND p.partition_key = 'p' || (1 + e.jobexecutionid % 2000)", POLICY);
        try {
            db.update("ANALYZE job_instance");
            db.update("ANALYZE job_execution");
            db.update("ANALYZE dispatch.admissions");
            long before = Long.MAX_VALUE;
            long anOrder = db.count("SELECT max(jobinstanceid) FROM job_instance WHERE applicationname = 'plan'");
            Map<String, String> plans = new LinkedHashMap<>();
            plans.put("partition", db.explainAndRollBack(JobsRepository.findSql(JobQuery.By.PARTITION),
                    POLICY, "p7", before, 50, POLICY, "p7", before, 50, POLICY, "p7", before, 50, POLICY, "p7", before, 50, 50));
            plans.put("job", db.explainAndRollBack(JobsRepository.findSql(JobQuery.By.JOB),
                    "plan-job-7", before, 50, "plan-job-7", before, 50, "plan-job-7", before, 50, "plan-job-7", before, 50, 50));
            plans.put("parameter", db.explainAndRollBack(JobsRepository.findSql(JobQuery.By.PARAMETER),
                    "order", "plan-" + anOrder, before, 50, "order = plan-" + anOrder, before, 50, "order", "plan-" + anOrder, before, 50,
                    "order = plan-" + anOrder, before, 50, 50));
            long execution = db.count("SELECT max(jobexecutionid) FROM job_execution");
            plans.put("execution", db.explainAndRollBack(JobsRepository.findSql(JobQuery.By.EXECUTION),
                    execution, before, 50, execution, before, 50, before, 50, execution, before, 50, 50));
            plans.forEach((key, plan) -> {
                List<JsonObject> admittedSide = scans(plan).stream().filter(n -> List.of("admissions", "job_execution", "job_instance")
                        .contains(n.getString("Relation Name"))).toList();
                assertThat(admittedSide).as(key + ": " + plan).isNotEmpty()
                        .noneMatch(n -> n.getString("Node Type").equals("Seq Scan"));
                assertThat(admittedSide.stream().mapToLong(PlanShapeTest::read).sum())
                        .as("rows " + key + "'s page read among 100,000 executions: " + plan).isLessThanOrEqualTo(2_000);
            });
        } finally {
            db.update("DELETE FROM dispatch.admissions WHERE submission_id > 9000000000000000");
            db.update("DELETE FROM job_execution e USING job_instance i WHERE i.jobinstanceid = e.jobinstanceid AND i.applicationname = 'plan'");
            db.update("DELETE FROM job_instance WHERE applicationname = 'plan'");
        }
    }

    @Test
    void jberetsReadsByInstanceAndByExecutionHaveTheirIndexesWhicheverNodeBootsFirst() {
        repositoryIndexes.ensure(); // a second boot finds them there: nothing happens, nothing fails
        assertThat(db.strings("SELECT indexdef FROM pg_indexes WHERE indexname IN ('dispatch_job_execution_instance_idx', "
                + "'dispatch_step_execution_execution_idx', 'dispatch_partition_execution_step_idx') ORDER BY indexname"))
                .containsExactly(
                        "CREATE INDEX dispatch_job_execution_instance_idx ON public.job_execution USING btree (jobinstanceid)",
                        "CREATE INDEX dispatch_partition_execution_step_idx ON public.partition_execution USING btree (stepexecutionid)",
                        "CREATE INDEX dispatch_step_execution_execution_idx ON public.step_execution USING btree (jobexecutionid)");
    }
}
