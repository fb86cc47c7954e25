package io.dispatchpolicy.devserver;

import io.dispatchpolicy.browser.Browser;
import io.dispatchpolicy.demo.Feature;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The playground as a newcomer meets it: the run command started as an operator starts it, the page
 * opened in a browser after the console's login, every card clicked once and what it promises checked
 * through the console's API (exact counts, lanes, order, end states), the storm started, refused while
 * it blows and refused for a bad field, a viewer who may look but not run, a post without the session's
 * token refused; then a clean stop with no ERROR. Screenshots (the README's pictures among them) in
 * {@code target/screenshots/playground/}.
 */
class PlaygroundIT {

    private static final int OFFSET = 600;
    private static final int HTTP_PORT = 8080 + OFFSET;
    private static final String CONSOLE = "http://localhost:" + HTTP_PORT + "/dispatch/";
    private static final Path ALL = Path.of(System.getProperty("run.command.dir", "target/run-command-it")).toAbsolutePath();
    private static final Path SHOTS = Path.of("target/screenshots/playground");
    private static final Duration SOON = Duration.ofSeconds(40);

    private static Path dir;
    private static Path runDir;
    private static RunCommandProcess run;
    private static int pgPort;
    private static String admin;
    private static Browser browser;

    @BeforeAll
    static void startTheRunCommand() throws IOException {
        dir = ALL.resolve("playground");
        runDir = dir.resolve("run");
        Trees.delete(dir);
        try (ServerSocket socket = new ServerSocket(0)) {
            pgPort = socket.getLocalPort();
        }
        run = RunCommandProcess.start(Map.of(RunSettings.DIR, runDir.toString(), RunSettings.PG_PORT, Integer.toString(pgPort),
                RunSettings.PORT_OFFSET, Integer.toString(OFFSET)), dir.resolve("not-this-one"), dir.resolve("console.log"));
        assertThat(run.awaitUp(Duration.ofMinutes(5))).isEqualTo(CONSOLE);
        admin = Files.readString(runDir.resolve("admin-password")).strip();
        browser = Browser.start();
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void stopCleanly() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (run == null) {
            return;
        }
        Path serverLog = runDir.resolve("standalone/log/server.log");
        BootLog stopping = BootLog.mark(serverLog);
        run.stop(Duration.ofMinutes(3));
        run.close();
        assertThat(stopping.lines()).as("server.log of the stop").anyMatch(l -> l.contains("WFLYSRV0050"))
                .noneMatch(l -> l.contains(" ERROR "));
        assertThat(Files.readAllLines(serverLog)).as("server.log of the whole run").noneMatch(l -> l.contains(" ERROR "));
    }

    @Test
    void everyCardDoesWhatItSays() throws Exception {
        WebDriver d = logIn("admin", admin);
        d.get(CONSOLE + "playground");
        List<WebElement> cards = d.findElements(By.cssSelector("article.card"));
        assertThat(cards).extracting(c -> c.getAttribute("id"))
                .containsExactlyElementsOf(java.util.Arrays.stream(Feature.values()).filter(f -> f != Feature.STORM).map(Feature::id).toList());
        Browser.screenshot(d, SHOTS.resolve("playground.png"));

        // The node runs at most 10 jobs at once (the batch thread pool), which every card's jobs share: the throttle
        // and the concurrency cards first, alone, so the concurrency cap is what limits its jobs, not the threads.
        Map<Feature, Instant> clicked = new java.util.EnumMap<>(Feature.class);
        run(d, Feature.THROTTLE, clicked);
        run(d, Feature.CONCURRENCY, clicked);

        // concurrency 2: two at a time, never three
        AtomicInteger most = new AtomicInteger();
        await().atMost(SOON).pollInterval(Duration.ofMillis(200)).until(() -> {
            most.accumulateAndGet(running(jobs("pg-concurrency", "acme")), Math::max);
            return completed(jobs("pg-concurrency", "acme")) >= 4;
        });
        assertThat(most.get()).isEqualTo(2);

        // throttle 5 per 10 s: the bucket's five at once, then one every 2 s, never more (counted from the click,
        // which is before the bucket's first admission: the bound is loose by the click's lead, never tight)
        assertThat(admittedInOrder(jobs("pg-throttle", "acme"))).hasSizeGreaterThanOrEqualTo(5);
        for (int i = 0; i < 6; i++) {
            double since = Duration.between(clicked.get(Feature.THROTTLE), Instant.now()).toMillis() / 1000.0;
            assertThat(admittedInOrder(jobs("pg-throttle", "acme")).size()).as("throttled admissions %.1f s after the click", since)
                    .isLessThanOrEqualTo(5 + (int) (since / 2));
            Thread.sleep(500);
        }
        assertThat(jobs("pg-throttle", "acme")).hasSize(20);

        for (Feature card : Feature.values()) {
            if (!clicked.containsKey(card) && card != Feature.STORM) {
                run(d, card, clicked);
            }
        }

        // fairness: the four small tenants are admitted while the whale still has most of its 60 waiting
        await().atMost(SOON).until(() -> java.util.stream.IntStream.rangeClosed(1, 4)
                .allMatch(m -> admitted(jobs("pg-fairness", "minnow-" + m)) == 3));
        assertThat(staged(jobs("pg-fairness", "whale"))).as("whale's jobs still waiting").isGreaterThanOrEqualTo(30);

        // lanes: the 6 critical jobs get their slots while 30 bulk jobs queue
        await().atMost(SOON).until(() -> admitted(jobs("pg-lanes", "globex")) == 6);
        assertThat(staged(jobs("pg-lanes", "acme"))).as("bulk jobs still waiting").isGreaterThanOrEqualTo(10);
        assertThat(jobs("pg-lanes", "globex")).extracting(j -> j.getString("lane")).containsOnly("critical");

        // demotion: noisy's first 10 in default, the 20 after the threshold in slow; quiet untouched
        List<JsonObject> noisy = jobs("pg-demotion", "noisy");
        assertThat(noisy).hasSize(30);
        assertThat(noisy.stream().filter(j -> "slow".equals(j.getString("lane"))).count()).isEqualTo(20);
        assertThat(noisy.stream().filter(j -> "default".equals(j.getString("lane"))).count()).isEqualTo(10);
        assertThat(jobs("pg-demotion", "quiet")).hasSize(5).extracting(j -> j.getString("lane")).containsOnly("default");

        // priority: the two urgent jobs (submitted last) are among the first three admitted: at most the job
        // running when they arrived goes before them
        List<JsonObject> byAdmission = await().atMost(SOON).until(() -> admittedInOrder(jobs("pg-priority", "acme")), l -> l.size() >= 3);
        List<Long> urgent = jobs("pg-priority", "acme").stream().map(j -> j.getJsonNumber("submissionId").longValue())
                .sorted(Comparator.reverseOrder()).limit(2).toList();
        assertThat(byAdmission.subList(0, 3)).extracting(j -> j.getJsonNumber("submissionId").longValue())
                .containsAll(urgent);

        // delay: three jobs staged, due half a minute after they were submitted
        List<JsonObject> delayed = jobs("pg-delay", "acme");
        assertThat(delayed).hasSize(3);
        JsonObject life = life(delayed.get(0).getJsonNumber("submissionId").longValue());
        assertThat(life.getJsonObject("job").getString("state")).isEqualTo("STAGED");
        assertThat(Duration.between(Instant.parse(life.getJsonObject("job").getString("stagedAt")), Instant.parse(life.getString("dueAt"))))
                .isBetween(Duration.ofSeconds(29), Duration.ofSeconds(31));

        // retries: three executions two seconds apart, then dead
        long failing = jobs("pg-retries", "acme").get(0).getJsonNumber("submissionId").longValue();
        await().atMost(SOON).until(() -> "DEAD".equals(life(failing).getJsonObject("job").getString("state")));
        assertThat(life(failing).getJsonArray("executions")).hasSize(3)
                .allSatisfy(e -> assertThat(e.asJsonObject().getString("batchStatus")).isEqualTo("FAILED"));

        // schedules: run now staged one occurrence, which ran
        await().atMost(SOON).until(() -> completed(jobs("pg-schedules", "scheduled")) >= 1);

        // sharding: one node admits every shard
        await().atMost(SOON).until(() -> java.util.stream.IntStream.rangeClosed(1, 8)
                .allMatch(t -> completed(jobs("pg-sharding", "tenant-" + t)) == 2));

        // uniqueness: one job for the five submissions
        assertThat(jobs("pg-uniqueness", "acme")).hasSize(1);

        // deadline: the blocker runs, the job behind it expires without running
        await().atMost(SOON).until(() -> jobs("pg-deadline", "acme").stream().anyMatch(j -> "EXPIRED".equals(j.getString("state"))));
        assertThat(jobs("pg-deadline", "acme")).extracting(j -> j.getString("state")).containsExactlyInAnyOrder("ADMITTED", "EXPIRED");
        assertThat(jobs("pg-deadline", "acme")).filteredOn(j -> "EXPIRED".equals(j.getString("state")))
                .allSatisfy(j -> assertThat(j.get("executionId")).isIn(null, JsonValue.NULL));

        // timeout: a 10 s job FAILED with the reason once interrupted after its 3 s and the stop's 2 s grace
        long slow = jobs("pg-timeout", "acme").get(0).getJsonNumber("submissionId").longValue();
        await().atMost(SOON).until(() -> "FAILED".equals(life(slow).getJsonObject("job").getString("batchStatus", "")));
        assertThat(life(slow).getJsonArray("executions")).singleElement().satisfies(e -> {
            assertThat(e.asJsonObject().getString("batchStatus")).isEqualTo("FAILED");
            assertThat(e.asJsonObject().getString("exitStatus")).contains("timed out after 3 s");
            assertThat(Duration.between(clicked.get(Feature.TIMEOUT), Instant.parse(e.asJsonObject().getString("endedAt"))))
                    .as("ended before the job's own 10 s").isLessThan(Duration.ofSeconds(9));
        });

        // adaptive: all 60 through, whatever the caps grew to
        await().atMost(Duration.ofMinutes(1)).until(() -> completed(jobs("pg-adaptive", "acme")) + completed(jobs("pg-adaptive", "globex"))
                + completed(jobs("pg-adaptive", "initech")) == 60);
    }

    @Test
    void theStormBlowsAndRefusesBadInput() throws Exception {
        WebDriver d = logIn("admin", admin);
        d.get(CONSOLE + "playground");
        storm(d, "20", "400", "8", "triangular");
        assertThat(d.findElement(By.id("said")).getText()).isEqualTo("The storm is blowing: 400 jobs for 20 tenants over 8 s, triangular.");

        storm(d, "20", "400", "8", "uniform");
        assertThat(d.findElement(By.id("refused")).getText()).startsWith("Not done: a storm is already blowing");

        storm(d, "0", "400", "8", "uniform");
        assertThat(d.findElement(By.id("refused")).getText()).isEqualTo("Not done: tenants must be a whole number from 1 to 200, was '0'");
        assertThat(d.findElement(By.cssSelector("label.bad input")).getAttribute("name")).isEqualTo("tenants");
        assertThat(d.findElement(By.name("jobs")).getAttribute("value")).as("the posted values kept").isEqualTo("400");

        try (Connection db = DriverManager.getConnection("jdbc:postgresql://localhost:" + pgPort + "/postgres", "postgres", "postgres")) {
            // the dashboard mid-storm, for the README's picture
            await().atMost(SOON).until(() -> count(db, "SELECT count(*) FROM dispatch.admissions a JOIN dispatch.partitions p"
                    + " ON p.id = a.partition_id WHERE p.policy_name = 'pg-storm'") >= 150);
            d.get(CONSOLE);
            Browser.screenshot(d, SHOTS.resolve("dashboard-storm.png"));
            d.get(CONSOLE + "playground");
            await().atMost(SOON).until(() -> {
                d.navigate().refresh();
                return d.findElement(By.id("storm-status")).getText().startsWith("Last storm: 400 of 400 jobs");
            });
            await("the storm's 400 jobs completed").atMost(Duration.ofMinutes(2)).until(() -> count(db,
                    "SELECT count(*) FROM job_execution e JOIN job_instance i ON i.jobinstanceid = e.jobinstanceid"
                            + " WHERE i.jobname = 'pg-storm' AND e.batchstatus = 'COMPLETED'") == 400);
            // triangular over 20 tenants: storm-020 sends 20 shares of 210, storm-001 one (it may send none of 400)
            assertThat(count(db, "SELECT count(*) FROM dispatch.partitions WHERE policy_name = 'pg-storm'")).isBetween(15L, 20L);
            assertThat(count(db, "SELECT total_admitted FROM dispatch.partitions WHERE policy_name = 'pg-storm' AND partition_key = 'storm-020'"))
                    .isGreaterThan(count(db, "SELECT coalesce(max(total_admitted), 0) FROM dispatch.partitions"
                            + " WHERE policy_name = 'pg-storm' AND partition_key IN ('storm-001', 'storm-002')"));
        }
        Browser.screenshot(d, SHOTS.resolve("playground-after-storm.png"));
    }

    @Test
    void aViewerMayLookButNotRunAndEveryPostNeedsTheSessionsToken() throws Exception {
        ConsoleAccounts.write(runDir.resolve("standalone/configuration"),
                Map.of("pg-viewer", new ConsoleAccounts.Account("viewer-secret", "dispatch-viewer")));
        WebDriver d = await().atMost(SOON).ignoreExceptions().until(() -> logIn("pg-viewer", "viewer-secret"), w -> true);
        d.get(CONSOLE + "playground");
        assertThat(d.findElement(By.cssSelector(".note")).getText()).contains("needs the dispatch-operator or dispatch-admin role");
        assertThat(d.findElements(By.cssSelector("button"))).allSatisfy(b -> assertThat(b.isEnabled()).isFalse());
        long before = jobs("pg-throttle", "acme").size();
        ((JavascriptExecutor) d).executeScript("var b = document.querySelector('#throttle button'); b.disabled = false; b.click();");
        assertThat(new WebDriverWait(d, SOON).until(ExpectedConditions.presenceOfElementLocated(By.id("refused"))).getText())
                .isEqualTo("Not done: running a scenario needs the dispatch-operator or dispatch-admin role");
        assertThat(jobs("pg-throttle", "acme")).hasSize((int) before);

        HttpResponse<String> noToken = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(CONSOLE + "playground"))
                .header("Authorization", basic("admin", admin)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("action=run&card=throttle")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(jobs("pg-throttle", "acme")).hasSize((int) before);
    }

    /**
     * The element's page has been replaced. Chrome sometimes answers a question about an element of a page being replaced
     * with "Node with given id does not belong to the document" rather than a stale-element error (seen once in CI);
     * {@code ExpectedConditions.stalenessOf} lets that through as a failure. Either answer means the page went.
     */
    private static org.openqa.selenium.support.ui.ExpectedCondition<Boolean> gone(WebElement element) {
        return driver -> {
            try {
                element.isEnabled();
                return false;
            } catch (org.openqa.selenium.WebDriverException e) {
                return true;
            }
        };
    }

    /** Clicks the card's Run and checks the page says what it submitted. */
    private static void run(WebDriver d, Feature card, Map<Feature, Instant> clicked) {
        clicked.put(card, Instant.now());
        WebElement button = d.findElement(By.cssSelector("#" + card.id() + " button"));
        button.click();
        // the page the button was on goes first: its #said is the previous card's
        new WebDriverWait(d, SOON).until(gone(button));
        String said = new WebDriverWait(d, SOON).until(ExpectedConditions.presenceOfElementLocated(By.id("said"))).getText();
        assertThat(said).as(card.id()).containsPattern(card == Feature.SCHEDULES ? "^Ran schedule" : "^Submitted");
        if (card == Feature.UNIQUENESS) {
            assertThat(said).contains("1 STAGED, 4 DUPLICATE");
        }
    }

    private static void storm(WebDriver d, String tenants, String jobs, String seconds, String distribution) {
        for (Map.Entry<String, String> field : Map.of("tenants", tenants, "jobs", jobs, "duration", seconds).entrySet()) {
            WebElement input = d.findElement(By.name(field.getKey()));
            input.clear();
            input.sendKeys(field.getValue());
        }
        new org.openqa.selenium.support.ui.Select(d.findElement(By.name("distribution"))).selectByValue(distribution);
        WebElement button = d.findElement(By.cssSelector(".storm-form button"));
        button.click();
        new WebDriverWait(d, SOON).until(gone(button));
        new WebDriverWait(d, SOON).until(ExpectedConditions.or(ExpectedConditions.presenceOfElementLocated(By.id("said")),
                ExpectedConditions.presenceOfElementLocated(By.id("refused"))));
    }

    private static WebDriver logIn(String user, String password) {
        WebDriver d = browser.driver();
        d.manage().deleteAllCookies();
        d.get(CONSOLE);
        d.findElement(By.id("j_username")).sendKeys(user);
        d.findElement(By.id("j_password")).sendKeys(password);
        d.findElement(By.id("login-button")).click();
        new WebDriverWait(d, SOON).until(ExpectedConditions.presenceOfElementLocated(By.id("total-pending")));
        return d;
    }

    /** The console API's jobs of one partition, newest first. */
    private static List<JsonObject> jobs(String policy, String tenant) {
        JsonArray rows = Json.createReader(new StringReader(get("api/jobs?by=partition&policy=" + policy + "&value=" + tenant + "&limit=500")))
                .readArray();
        return rows.stream().map(JsonValue::asJsonObject).toList();
    }

    private static JsonObject life(long submission) {
        return Json.createReader(new StringReader(get("api/jobs/" + submission))).readObject();
    }

    private static String get(String path) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(CONSOLE + path))
                    .header("Authorization", basic("admin", admin)).timeout(Duration.ofSeconds(30)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
            return r.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static List<JsonObject> admittedInOrder(List<JsonObject> jobs) {
        List<JsonObject> admitted = new ArrayList<>(jobs.stream().filter(j -> j.get("executionId") instanceof jakarta.json.JsonNumber).toList());
        admitted.sort(Comparator.comparingLong(j -> j.getJsonNumber("executionId").longValue()));
        return admitted;
    }

    private static long admitted(List<JsonObject> jobs) {
        return jobs.stream().filter(j -> "ADMITTED".equals(j.getString("state"))).count();
    }

    private static long staged(List<JsonObject> jobs) {
        return jobs.stream().filter(j -> "STAGED".equals(j.getString("state"))).count();
    }

    /** Admitted and not ended: what a concurrency gate counts. */
    private static int running(List<JsonObject> jobs) {
        return (int) jobs.stream().filter(j -> "ADMITTED".equals(j.getString("state"))
                && !List.of("COMPLETED", "FAILED", "STOPPED", "ABANDONED").contains(j.getString("batchStatus", ""))).count();
    }

    private static long completed(List<JsonObject> jobs) {
        return jobs.stream().filter(j -> "COMPLETED".equals(j.getString("batchStatus", ""))).count();
    }

    private static long count(Connection db, String sql) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
