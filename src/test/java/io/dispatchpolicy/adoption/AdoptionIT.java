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
 * Adoption end to end, as the README tells a newcomer: unzip {@code dispatch-wildfly-config}, run
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
        UserArchives.war(artifacts, configDir, dir.resolve("archives"));
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

    @Test
    @Order(2)
    void aWarWithTheEngineInsideGovernsItsJobsAndTheConsoleDeploysBesideIt() throws SQLException {
        server.deploy(dir.resolve("archives/adopted.war"));
        server.deploy(dir.resolve("archives/dispatch-console.war"));

        submitAndAwaitCompleted("/adopted/api/reports", "globex");

        assertThat(admitted("globex")).isEqualTo(JOBS);
        assertThat(completedExecutions()).isEqualTo(2 * JOBS);
        assertConsoleShowsThePolicy();
        assertThat(server.logLines()).as("the engine's dependencies must not switch the WAR from JSON-B to Jackson")
                .noneMatch(line -> line.contains("WFLYRS0018"));
    }

    @Test
    @Order(3)
    void theServerStopsCleanly() {
        server.stop();
        assertThat(server.logLines()).filteredOn(line -> line.contains(" ERROR ")).isEmpty();
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
