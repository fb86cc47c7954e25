package io.dispatchpolicy.server;

import io.dispatchpolicy.it.SystemTest;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.dmr.ModelNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The server suspended and resumed as an operator does it, with jboss-cli's operations ({@code :suspend},
 * {@code :resume}) through the management API, from outside the server (ADR 0021): while suspended no
 * execution is created or started; on resume everything staged is admitted through the policy, and what
 * the suspend stopped is restarted once — by the engine, not by WildFly's {@code restart-jobs-on-resume}.
 */
@RunAsClient
class SuspendIT extends SystemTest {

    private static final String JOB = "it-suspend";
    /** Executions of the submissions' job instances, with their partition (the tenant). */
    private static final String EXECUTIONS = "WITH ours AS (SELECT a.partition_id, e.jobinstanceid FROM dispatch.admissions a "
            + "JOIN job_execution e ON e.jobexecutionid = a.execution_id WHERE a.submission_id = ANY(?)) "
            + "SELECT o.partition_id, x.jobexecutionid, x.jobinstanceid, x.batchstatus, x.starttime, x.endtime "
            + "FROM ours o JOIN job_execution x ON x.jobinstanceid = o.jobinstanceid";

    @ArquillianResource
    ManagementClient management;

    @AfterEach
    void resumeAndForgetTheWait() throws IOException {
        execute(operation("resume"));
        ModelNode remove = operation("remove");
        remove.get("address").add("system-property", "dispatch.suspend-job-wait");
        management.getControllerClient().execute(remove); // absent unless a test set it
    }

    @Test
    void aSuspendedServerAdmitsNothingAndItsResumeAdmitsEveryStagedJobOnceWithinItsCap() throws Exception {
        List<Long> submissions = new ArrayList<>();
        for (int t = 0; t < 10; t++) {
            submissions.addAll(submit(20, "tenant", "suspend-" + t, "sleepMs", "150"));
        }
        assertThat(submissions).hasSize(200);
        await().atMost(Duration.ofSeconds(60)).until(() -> admitted(submissions) >= 30);

        suspend();
        long lastBefore = lastExecutionId();
        int admittedBefore = admitted(submissions);
        // 20 s suspended: no execution created, none admitted, none started
        await().during(Duration.ofSeconds(20)).atMost(Duration.ofSeconds(25)).until(() -> lastExecutionId() == lastBefore
                && admitted(submissions) == admittedBefore && running(submissions) == 0);
        assertThat(admittedBefore).as("admitted before the suspend").isLessThan(200);

        execute(operation("resume"));
        await().atMost(Duration.ofSeconds(120)).until(() -> completed(submissions) == 200);

        List<Execution> executions = executions(submissions);
        assertThat(executions).as("one execution per submission: none restarted behind the engine's back, none run twice")
                .hasSize(200).allMatch(e -> e.status().equals("COMPLETED"));
        assertThat(maxOverlapPerPartition(executions)).as("the cap of three per tenant, across the suspend").isLessThanOrEqualTo(3);
    }

    @Test
    void jobsStillRunningWhenTheWaitEndsAreStoppedAndRestartedOnceThroughThePolicyOnResume() throws Exception {
        ModelNode wait = operation("add");
        wait.get("address").add("system-property", "dispatch.suspend-job-wait");
        wait.get("value").set("0");
        execute(wait);
        List<Long> submissions = new ArrayList<>();
        submissions.addAll(submit(3, "tenant", "stopped-a", "sleepMs", "4000"));
        submissions.addAll(submit(3, "tenant", "stopped-b", "sleepMs", "4000"));
        await().atMost(Duration.ofSeconds(60)).until(() -> running(submissions) == 6);

        suspend();
        long lastBefore = lastExecutionId();
        assertThat(executions(submissions)).as("stopped by the suspend, at once (dispatch.suspend-job-wait=0)")
                .hasSize(6).allMatch(e -> e.status().equals("STOPPED"));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> lastExecutionId() == lastBefore);

        execute(operation("resume"));
        await().atMost(Duration.ofSeconds(60)).until(() -> completed(submissions) == 6);

        List<Execution> executions = executions(submissions);
        assertThat(executions).as("each stopped once and restarted once: 6 STOPPED, 6 COMPLETED, nothing else").hasSize(12);
        assertThat(executions.stream().filter(e -> e.status().equals("STOPPED")).count()).isEqualTo(6);
        assertThat(executions.stream().filter(e -> e.status().equals("COMPLETED")).map(Execution::instance).distinct().count())
                .as("a COMPLETED execution in each job instance").isEqualTo(6);
        assertThat(maxOverlapPerPartition(executions)).isLessThanOrEqualTo(3);
    }

    /** {@code :suspend(suspend-timeout=60)}, returning once the server says SUSPENDED. */
    private void suspend() throws IOException {
        ModelNode suspend = operation("suspend");
        suspend.get("suspend-timeout").set(60);
        execute(suspend);
        ModelNode state = operation("read-attribute");
        state.get("name").set("suspend-state");
        await().atMost(Duration.ofSeconds(60)).until(() -> execute(state).asString().equals("SUSPENDED"));
    }

    private static ModelNode operation(String name) {
        ModelNode op = new ModelNode();
        op.get("operation").set(name);
        op.get("address").setEmptyList();
        return op;
    }

    private ModelNode execute(ModelNode op) throws IOException {
        ModelNode result = management.getControllerClient().execute(op);
        assertThat(result.get("outcome").asString()).as("%s: %s", op, result).isEqualTo("success");
        return result.get("result");
    }

    private List<Long> submit(int count, String... params) throws IOException, InterruptedException {
        StringBuilder query = new StringBuilder("job=" + JOB + "&count=" + count);
        for (int i = 0; i < params.length; i += 2) {
            query.append('&').append(params[i]).append('=').append(params[i + 1]);
        }
        URI uri = URI.create(management.getWebUri() + "/it-submit/submit?" + query);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Arrays.stream(response.body().split(",")).map(Long::valueOf).toList();
    }

    private int admitted(List<Long> submissions) throws SQLException {
        return count("SELECT count(*) FROM dispatch.admissions WHERE submission_id = ANY(?)", submissions);
    }

    private int completed(List<Long> submissions) throws SQLException {
        return count("SELECT count(*) FROM dispatch.admissions a JOIN job_execution e ON e.jobexecutionid = a.execution_id "
                + "WHERE a.submission_id = ANY(?) AND e.batchstatus = 'COMPLETED'", submissions);
    }

    private int running(List<Long> submissions) throws SQLException {
        return count("SELECT count(*) FROM (" + EXECUTIONS + ") x WHERE batchstatus IN ('STARTED', 'STOPPING')", submissions);
    }

    private long lastExecutionId() throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT coalesce(max(jobexecutionid), 0) FROM job_execution"); ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private record Execution(long partition, long id, long instance, String status, java.sql.Timestamp start,
                             java.sql.Timestamp end) {
    }

    private List<Execution> executions(List<Long> submissions) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(EXECUTIONS)) {
            s.setArray(1, ids(c, submissions));
            List<Execution> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Execution(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getTimestamp(5),
                            rs.getTimestamp(6)));
                }
            }
            return rows;
        }
    }

    /** The most executions of one partition running at one instant, from JBeret's start and end times. */
    private static long maxOverlapPerPartition(List<Execution> executions) {
        long max = 0;
        for (Execution e : executions) {
            if (e.start() == null) {
                continue;
            }
            long at = e.start().getTime();
            long overlapping = executions.stream().filter(o -> o.partition() == e.partition() && o.start() != null
                    && o.start().getTime() <= at && (o.end() == null || o.end().getTime() > at)).count();
            max = Math.max(max, overlapping);
        }
        return max;
    }

    private int count(String sql, List<Long> submissions) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setArray(1, ids(c, submissions));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static Array ids(Connection c, List<Long> ids) throws SQLException {
        return c.createArrayOf("bigint", ids.toArray());
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("dispatch.test.db.url"),
                System.getProperty("dispatch.test.db.user"), System.getProperty("dispatch.test.db.password"));
    }
}
