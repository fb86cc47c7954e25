package io.dispatchpolicy.browser;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every page of the console at the two widths a console is read at (1400 px, a laptop; 1024 px, a small window), with
 * the data that broke it before (issue 37): long submission ids, long partition keys, a laned policy, many policies,
 * denials with long reasons. Each page must pass {@code layout-check.js}: no text clipped, no text over other text, no
 * word squeezed to a letter per line, no two controls run together, no page wider than the window.
 */
class LayoutBrowserIT extends BrowserTest {

    private static final String KEY = "tenant-with-a-rather-long-name-0042";
    private static long submission;
    private static long partition;
    private static long group;

    @BeforeAll
    static void seed() throws Exception {
        submission = Long.parseLong(submit("it-deadline", KEY, 3).split(",")[0]);
        sql("INSERT INTO dispatch.partitions (policy_name, partition_key, lane, pending_count, last_deny_reason, last_denied_at, "
                + "next_eligible_at, last_checked_at) SELECT 'it-lanes', ?, l, CASE WHEN l = '' THEN 0 ELSE 2 END, 'capacity_full', now(), "
                + "now() + interval '1 minute', now() "
                + "FROM unnest(ARRAY['', 'critical', 'default', 'bulk']) l ON CONFLICT DO NOTHING", KEY);
        sql("INSERT INTO dispatch.denial_history (partition_id, policy_name, partition_key, reason, started_at, last_at, denials) "
                + "SELECT id, policy_name, partition_key, 'concurrency_full', now() - interval '3 minutes', now(), 12 FROM dispatch.partitions "
                + "WHERE policy_name = 'it-lanes' AND partition_key = ? AND lane = 'bulk'", KEY);
        // a group with a long name and two callbacks, as its page shows them (ADR 0052)
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement("INSERT INTO dispatch.job_groups (name, total, completed) "
                + "VALUES ('nightly-import-of-every-tenant-with-a-rather-long-name-0042', 1000, 990) RETURNING id")) {
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                group = rs.getLong(1);
            }
        }
        sql("INSERT INTO dispatch.followers (after_submission, kind, on_end, job_name, job_parameters, spec, group_id) "
                + "SELECT NULL, 'callback', o, 'send-the-summary-of-every-tenant-' || o, '{}', '{}', ? FROM unnest(ARRAY['success', 'any']) o", group);
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT partition_id FROM dispatch.staged_jobs WHERE id = ? UNION ALL SELECT partition_id FROM dispatch.admissions WHERE submission_id = ?")) {
            s.setLong(1, submission);
            s.setLong(2, submission);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                partition = rs.getLong(1);
            }
        }
    }

    /**
     * What the seed left is taken out: the system tests after this class count what a tick iteration claims and admits
     * in the shared database, and would count the seeded lane rows (pending, with no job) and the waiting jobs.
     */
    @AfterAll
    static void removeTheSeed() throws Exception {
        sql("DELETE FROM dispatch.staged_jobs WHERE partition_id IN (SELECT id FROM dispatch.partitions WHERE partition_key = ?)", KEY);
        sql("UPDATE dispatch.partitions SET pending_count = 0, scheduled_count = 0, parked_count = 0, top_priority = 0 "
                + "WHERE partition_key = ?", KEY);
        sql("DELETE FROM dispatch.denial_history WHERE policy_name = 'it-lanes' AND partition_key = ?", KEY);
        sql("DELETE FROM dispatch.partitions WHERE policy_name = 'it-lanes' AND partition_key = ?", KEY);
        sql("DELETE FROM dispatch.job_groups WHERE id = ?", group);
    }

    @Test
    void everyPageIsLaidOutWithoutClippingOrOverlapAt1400And1024Pixels() throws Exception {
        WebDriver d = ConsolePages.logIn(browser, "admin");
        String check = script();
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("dashboard", "index.xhtml");
        pages.put("policies", "policies.xhtml");
        pages.put("partitions", "partitions.xhtml");
        pages.put("partition", "partition.xhtml?id=" + partition);
        pages.put("partition-lanes", "partition.xhtml?id=" + lanedKey());
        pages.put("denials", "denials.xhtml");
        pages.put("jobs", "jobs.xhtml");
        pages.put("jobs-partition", "jobs.xhtml?by=partition&policy=it-deadline&value=" + KEY);
        pages.put("job", "job.xhtml?id=" + submission);
        pages.put("dead", "dead.xhtml");
        pages.put("bulk", "bulk.xhtml");
        pages.put("schedules", "schedules.xhtml");
        pages.put("schedule", "schedule.xhtml?name=it-declared");
        pages.put("schedule-form", "schedule-form.xhtml");
        pages.put("calendars", "calendars.xhtml");
        pages.put("audit", "audit.xhtml");
        pages.put("limits", "limits.xhtml");
        pages.put("group", "group.xhtml?id=" + group);
        List<String> problems = new ArrayList<>();
        java.nio.file.Path log = java.nio.file.Path.of("target/server/standalone/log/server.log");
        long logBefore = java.nio.file.Files.exists(log) ? java.nio.file.Files.size(log) : 0;
        try {
            for (int width : new int[] {1400, 1024}) {
                d.manage().window().setSize(new Dimension(width, 900));
                for (Map.Entry<String, String> page : pages.entrySet()) {
                    d.get(ConsolePages.BASE + page.getValue());
                    ConsolePages.waitFor(d).until(ExpectedConditions.presenceOfElementLocated(By.className("content")));
                    // PrimeFaces lays out its widgets (charts, menus) after the load
                    ConsolePages.waitFor(d).until(x -> "complete".equals(((JavascriptExecutor) x).executeScript("return document.readyState")));
                    browser.screenshot(SHOTS.resolve("layout/" + width + "-" + page.getKey() + ".png"));
                    @SuppressWarnings("unchecked")
                    List<String> found = (List<String>) ((JavascriptExecutor) d).executeScript(check);
                    found.forEach(p -> problems.add(width + " px, " + page.getKey() + ": " + p));
                }
            }
        } finally {
            d.manage().window().setSize(new Dimension(1400, 1000));
        }
        assertThat(problems).as("layout problems (screenshots in %s)", SHOTS.resolve("layout")).isEmpty();
        if (java.nio.file.Files.exists(log)) {
            // JSF1103 (a view parameter outside f:metadata) was logged on every view of the partition, jobs and job pages
            String logged = new String(java.nio.file.Files.readAllBytes(log), StandardCharsets.UTF_8).substring((int) logBefore);
            assertThat(logged.lines().filter(l -> l.contains("JSF1103") || l.contains(" ERROR ")).toList())
                    .as("JSF warnings or errors logged while the pages were shown").isEmpty();
        }
    }

    /** A key of a policy with lanes is one partition with its lanes as columns, not a row per lane (issue 37). */
    @Test
    void aKeyOfALanedPolicyIsOnePartitionWithItsLanesAsColumns() throws Exception {
        WebDriver d = ConsolePages.logIn(browser, "admin");
        d.get(ConsolePages.BASE + "partitions.xhtml");
        d.findElement(By.id("partitions:search")).sendKeys(KEY);
        ConsolePages.click(d, By.id("partitions:apply"));
        ConsolePages.waitFor(d).until(x -> x.findElements(By.cssSelector("#partitions\\:table_data tr")).size() == 2);
        List<String> rows = d.findElements(By.cssSelector("#partitions\\:table_data tr")).stream().map(WebElement::getText).toList();
        assertThat(rows).as("it-deadline's partition and it-lanes' key, once each").hasSize(2).noneMatch(r -> r.contains("(lane "));
        WebElement laned = d.findElements(By.cssSelector("#partitions\\:table_data tr")).stream()
                .filter(r -> r.getText().contains("it-lanes")).findFirst().orElseThrow();
        assertThat(laned.findElements(By.cssSelector("td")).get(2).getText()).as("pending: its lanes' sum").isEqualTo("6");
        assertThat(laned.findElements(By.cssSelector(".lane-count")).stream().map(WebElement::getText).toList())
                .containsExactly("bulk 2", "critical 2", "default 2");

        assertThat(laned.findElement(By.cssSelector("a.partition-link")).getAttribute("href")).as("the key opens the key's page")
                .endsWith("id=" + lanedKey());
        d.get(ConsolePages.BASE + "partition.xhtml?id=" + lanedKey());
        assertThat(d.findElements(By.cssSelector("[id$='lane-table_data'] tr")).stream().map(r -> r.findElements(By.cssSelector("td")).get(0).getText()).toList())
                .containsExactly("bulk", "critical", "default");
    }

    /** The id of the seeded key's own row of it-lanes (lane ''). */
    private static long lanedKey() throws Exception {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT id FROM dispatch.partitions WHERE policy_name = 'it-lanes' AND partition_key = ? AND lane = ''")) {
            s.setString(1, KEY);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String script() throws IOException {
        try (InputStream in = LayoutBrowserIT.class.getResourceAsStream("/browser/layout-check.js")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String submit(String policy, String tenant, int count) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:8080/it-submit/submit?job=" + policy + "&count=" + count + "&tenant=" + tenant + "&sleepMs=5000")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }
}
