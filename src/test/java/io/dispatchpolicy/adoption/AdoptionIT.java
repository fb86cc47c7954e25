package io.dispatchpolicy.adoption;

import io.dispatchpolicy.adoption.app.ReportPolicies;
import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.devserver.Trees;
import io.dispatchpolicy.faults.harness.FaultDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Adoption end to end, as the guide tells a newcomer: unzip {@code dispatch-wildfly-config}, run
 * {@code configure.cli} with their values against an untouched WildFly, add a console user with
 * {@code add-user.sh}, start the server, and deploy their own application — first as an EAR (engine,
 * console and their EJB module), then as a WAR (engine in {@code WEB-INF/lib}) with the console's
 * standalone WAR beside it. Each must stage, admit and complete its jobs through its policy, keep
 * JSON-B for its own REST endpoints, and the server must stop without an ERROR.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdoptionIT {

    private static final String ADMIN = "adopter";
    private static final String ADMIN_PASSWORD = "Adopt-1-secret!";
    private static final Pattern SUBMISSION_ID = Pattern.compile("\"submission-id\":(\\d+)");
    private static final int JOBS = 4;
    private static final String DATASOURCE = "java:jboss/datasources/ReportsDS";
    /**
     * A setting the engine refuses at boot: a redeploy carrying it fails (the guide: invalid values). Its
     * file outranks the server's system properties, which configure.cli set for every setting.
     */
    private static final String BAD_SETTING = "config_ordinal=500\ndispatch.partition-batch-size=many\n";
    /** The console answers within this whatever the engine's deployment is doing (issue 33, ADR 0026). */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(1);

    private static Path dir;
    private static FaultDatabase db;
    private static AdoptedServer server;

    @BeforeAll
    static void configureAndStart() throws IOException {
        dir = Path.of(System.getProperty("adoption.dir"));
        Path artifacts = dir.resolve("artifacts");
        Path configDir = unzip(artifacts.resolve("dispatch-wildfly-config.zip"), dir.resolve("config"))
                .resolve("dispatch-wildfly-config");
        db = FaultDatabase.start(dir.resolve("pgdata"));
        // The adopter's copy of dispatch.properties: their database, and a datasource name of their own
        // (the engine finds it through dispatch.datasource).
        Path properties = dir.resolve("my-dispatch.properties");
        Files.writeString(properties, Files.readString(configDir.resolve("dispatch.properties"))
                .replace("jdbc:postgresql://localhost:5432/dispatch", db.url())
                .replace("java:jboss/datasources/DispatchDS", DATASOURCE));
        server = AdoptedServer.copyOf(Path.of(System.getProperty("adoption.pristine")), dir.resolve("server"));
        server.configure(configDir, properties);
        server.addConsoleUser(ADMIN, ADMIN_PASSWORD, "dispatch-admin,dispatch-viewer");
        server.start();
        assertThat(server.logLines()).as("the datasource is bound where the adopter said")
                .anyMatch(line -> line.contains("Bound data source [" + DATASOURCE + "]"));
        Files.createDirectories(dir.resolve("archives"));
        UserArchives.ear(artifacts, dir.resolve("archives"));
        UserArchives.ear(artifacts, dir.resolve("archives"), "reports-broken.ear", BAD_SETTING);
        UserArchives.war(artifacts, dir.resolve("archives"));
        UserArchives.war(artifacts, dir.resolve("archives"), "adopted-broken.war", BAD_SETTING);
        Files.copy(artifacts.resolve("dispatch-web-standalone.war"), dir.resolve("archives/dispatch-console.war"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @AfterAll
    static void stopEverything() {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (db != null) {
                db.close();
            }
        }
    }

    @Test
    @Order(1)
    void anEarWithEngineConsoleAndItsOwnEjbModuleGovernsItsJobs() throws SQLException {
        server.deploy(dir.resolve("archives/reports.ear"));
        try {
            submitAndAwaitCompleted("/reports/api/reports", "acme");

            assertThat(admitted("acme")).isEqualTo(JOBS);
            assertConsoleShowsThePolicy();
            HttpResponse<String> anonymous = server.send("GET", "/dispatch/api/policies", null);
            assertThat(anonymous.statusCode()).as("without credentials the API answers 401").isEqualTo(401);
            assertThat(anonymous.body()).doesNotContain(ReportPolicies.POLICY);
        } finally {
            server.undeploy("reports.ear"); // the WAR's console takes /dispatch next
        }
    }

    /**
     * The EAR redeployed with a bad setting, through jboss-cli as an operator does it: WildFly's rollback
     * brings the running version back; without the rollback the EAR stays failed (its console with it:
     * WildFly answers 500 at once), and the server stays manageable — {@code deployment-info}, then {@code deploy --force}
     * of the good EAR, which governs jobs again.
     */
    @Test
    @Order(2)
    void aFailedRedeployOfTheEarLeavesTheServerManageable() throws Exception {
        Path good = dir.resolve("archives/reports.ear");
        Path broken = dir.resolve("archives/reports-broken.ear");
        cliOk("deploy " + good);
        try {
            assertEarRedeploys(good, broken);
        } finally {
            server.cli("undeploy reports.ear"); // the WAR's console takes /dispatch next
        }
    }

    private static void assertEarRedeploys(Path good, Path broken) throws Exception {
        assertSummaryStatus(200);

        assertRefused(cliWhileWatchingTheConsole("deploy " + broken + " --name=reports.ear --runtime-name=reports.ear --force",
                200, 404, 500, 503));
        await("the rolled-back EAR answers again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> summaryStatus() == 200);

        assertRefused(cliWhileWatchingTheConsole("deploy " + broken + " --name=reports.ear --runtime-name=reports.ear --force"
                + " --headers={rollback-on-runtime-failure=false}", 200, 404, 500, 503));
        for (int i = 0; i < 3; i++) {
            assertThat(summaryStatus()).as("the failed EAR's console is down with it, and WildFly says so at once (its start "
                    + "never completed)").isEqualTo(500);
        }
        assertThat(cliOk("deployment-info --name=reports.ear")).contains("FAILED");

        cliOk("deploy " + good + " --name=reports.ear --runtime-name=reports.ear --force");
        submitAndAwaitCompleted("/reports/api/reports", "initech");
        assertThat(admitted("initech")).isEqualTo(JOBS);
    }

    @Test
    @Order(3)
    void aWarWithTheEngineInsideGovernsItsJobsAndTheConsoleDeploysBesideIt() throws SQLException {
        server.deploy(dir.resolve("archives/adopted.war"));
        server.deploy(dir.resolve("archives/dispatch-console.war"));

        submitAndAwaitCompleted("/adopted/api/reports", "globex");

        assertThat(admitted("globex")).isEqualTo(JOBS);
        assertThat(completedExecutions()).as("acme's and initech's through the EAR, globex's here").isEqualTo(3 * JOBS);
        assertConsoleShowsThePolicy();
        assertThat(server.logLines()).as("the engine's dependencies must not switch the WAR from JSON-B to Jackson")
                .noneMatch(line -> line.contains("WFLYRS0018"));
    }

    /**
     * The user's WAR fails to redeploy beside the standalone console (issue 33): the console answers
     * every request within a second throughout — 503 with the reason while the engine is missing, starting
     * or failed, its pages a banner — and attaches to the engine again when a good WAR is deployed with
     * {@code deploy --force}.
     */
    @Test
    @Order(4)
    void aFailedRedeployOfTheWarLeavesTheStandaloneConsoleAnsweringAndTheServerManageable() throws Exception {
        Path good = dir.resolve("archives/adopted.war");
        Path broken = dir.resolve("archives/adopted-broken.war");
        long mark = server.logMark();
        server.undeploy("adopted.war");
        HttpResponse<String> stopped = summary();
        assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(503);
        assertThat(stopped.body()).as("the first call finds the engine stopped, or already gone")
                .containsAnyOf("\"detail\":\"The engine is unavailable: The engine's deployment (java:global/adopted) stopped",
                        "\"detail\":\"The engine is unavailable: The Dispatch Policy engine is not deployed");
        await("the console says the engine is not deployed").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                .until(() -> summary().body(), body -> body.contains("\"detail\":\"The engine is unavailable: The Dispatch Policy engine is not deployed"));
        HttpResponse<String> page = server.send("GET", "/dispatch/index.xhtml", ADMIN + ":" + ADMIN_PASSWORD, ANSWER_WITHIN);
        assertThat(page.statusCode()).isEqualTo(503);
        assertThat(page.body()).contains("id=\"engine-unavailable\"").contains("The Dispatch Policy engine is not deployed");

        cliOk("deploy " + good);
        await("the console attaches to the deployed engine").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> summaryStatus() == 200);

        // WildFly's rollback brings the running WAR back; the console follows it to the new incarnation
        assertRefused(cliWhileWatchingTheConsole("deploy " + broken + " --name=adopted.war --runtime-name=adopted.war --force",
                200, 503));
        await("the console reaches the rolled-back WAR").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> summaryStatus() == 200);

        // without the rollback the WAR stays failed: 503 and the banner, every time, at once
        assertRefused(cliWhileWatchingTheConsole("deploy " + broken + " --name=adopted.war --runtime-name=adopted.war --force"
                + " --headers={rollback-on-runtime-failure=false}", 200, 503));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> failed = summary();
            assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
            assertThat(failed.body()).contains("\"status\":503").contains("\"detail\":\"The engine is unavailable");
            Thread.sleep(400); // across the console's one-second memory of an unavailable engine
        }
        HttpResponse<String> banner = server.send("GET", "/dispatch/index.xhtml", ADMIN + ":" + ADMIN_PASSWORD, ANSWER_WITHIN);
        assertThat(banner.statusCode()).isEqualTo(503);
        assertThat(banner.body()).contains("id=\"engine-unavailable\"");
        assertThat(cliOk("deployment-info --name=adopted.war")).contains("FAILED");

        cliOk("deploy " + good + " --name=adopted.war --runtime-name=adopted.war --force");
        await("the console attaches to the good WAR").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> summaryStatus() == 200);
        submitAndAwaitCompleted("/adopted/api/reports", "umbrella");
        assertThat(admitted("umbrella")).isEqualTo(JOBS);
        assertConsoleShowsThePolicy();
        assertThat(server.logLinesSince(mark)).as("the console never held a call in a deployment's startup wait "
                        + "(none interrupted, no operation left waiting for the container)")
                .noneMatch(line -> line.contains("WFLYEJB0034") || line.contains("WFLYCTL0349"));
    }

    /** {@code :shutdown} after all of it: no ERROR from the stop itself. */
    @Test
    @Order(5)
    void theServerStopsCleanly() {
        long mark = server.logMark();
        server.shutdown();
        assertThat(server.logLinesSince(mark)).filteredOn(line -> line.contains(" ERROR ")).isEmpty();
        assertThat(server.logLinesSince(mark)).anyMatch(line -> line.contains("WFLYSRV0050"));
    }

    /**
     * Runs a jboss-cli command while another thread asks the console's summary every 100 ms: each answer
     * must come within {@link #ANSWER_WITHIN} with one of {@code statuses}.
     */
    private static AdoptedServer.CliResult cliWhileWatchingTheConsole(String command, Integer... statuses) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.ExecutorService watcher = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<List<Integer>> seen = watcher.submit(() -> {
            List<Integer> answers = new ArrayList<>();
            while (!done.get()) {
                answers.add(summaryStatus());
                Thread.sleep(100);
            }
            return answers;
        });
        try {
            return server.cli(command);
        } finally {
            done.set(true);
            List<Integer> answers = seen.get(1, java.util.concurrent.TimeUnit.MINUTES);
            watcher.shutdown();
            assertThat(answers).as("the console's answers during: " + command).isNotEmpty().allMatch(List.of(statuses)::contains);
        }
    }

    private static void assertRefused(AdoptedServer.CliResult result) {
        assertThat(result.exitCode()).as(result.output()).isNotZero();
        assertThat(result.output()).as("the failure names the setting").contains("dispatch.partition-batch-size");
    }

    private static String cliOk(String command) {
        AdoptedServer.CliResult result = server.cli(command);
        assertThat(result.exitCode()).as(command + ": " + result.output()).isZero();
        return result.output();
    }

    /** The summary, answered within {@link #ANSWER_WITHIN} (a request that blocks fails the test). */
    private static HttpResponse<String> summary() {
        return server.send("GET", "/dispatch/api/summary", ADMIN + ":" + ADMIN_PASSWORD, ANSWER_WITHIN);
    }

    private static int summaryStatus() {
        return summary().statusCode();
    }

    private static void assertSummaryStatus(int status) {
        await("summary " + status).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> summaryStatus() == status);
    }

    /**
     * Submits {@link #JOBS} reports of one tenant through the application's REST endpoint: each answer
     * is a submission id (the job was staged: ADR 0002) named by JSON-B's {@code @JsonbProperty}, and
     * each ends ADMITTED and COMPLETED.
     */
    private static void submitAndAwaitCompleted(String resource, String tenant) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            HttpResponse<String> receipt = server.send("POST", resource + "?tenant=" + tenant, null);
            assertThat(receipt.statusCode()).as(receipt.body()).isEqualTo(200);
            Matcher id = SUBMISSION_ID.matcher(receipt.body());
            assertThat(id.find()).as("JSON-B names the field submission-id: " + receipt.body()).isTrue();
            ids.add(Long.parseLong(id.group(1)));
        }
        assertThat(ids).allMatch(DispatchOperator::isSubmissionId);
        for (long id : ids) {
            await("submission " + id + " completed").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> server.send("GET", resource + "/" + id, null).body(), body -> body.contains("ADMITTED COMPLETED"));
        }
    }

    private static void assertConsoleShowsThePolicy() {
        HttpResponse<String> policies = server.send("GET", "/dispatch/api/policies", ADMIN + ":" + ADMIN_PASSWORD);
        assertThat(policies.statusCode()).as(policies.body()).isEqualTo(200);
        assertThat(policies.body()).contains(ReportPolicies.POLICY);
    }

    private static long admitted(String tenant) throws SQLException {
        return single("SELECT total_admitted FROM dispatch.partitions WHERE policy_name = ? AND partition_key = ?",
                ReportPolicies.POLICY, tenant);
    }

    private static long completedExecutions() throws SQLException {
        return single("SELECT count(*) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid "
                + "WHERE i.jobname = ? AND e.batchstatus = 'COMPLETED'", ReportPolicies.JOB);
    }

    private static long single(String sql, String... params) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                st.setString(i + 1, params[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).as(sql).isTrue();
                return rs.getLong(1);
            }
        }
    }

    private static Path unzip(Path zip, Path target) {
        Trees.delete(target);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(in, file); // copies this entry only; the stream stays open for the next
                    if (file.toString().endsWith(".sh") || file.toString().endsWith(".cli")) {
                        file.toFile().setReadable(true);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }
}
