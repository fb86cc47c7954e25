package io.dispatchpolicy.browser;

import io.dispatchpolicy.devserver.EmbeddedPostgresSession;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Jobs view in a real browser: jobs submitted through the policy (as an application would) are
 * found by each key; a failed one is restarted from its page and shows both executions and why; the
 * JSON API answers the same searches with the same jobs.
 */
class JobsBrowserIT extends BrowserTest {

    private static final String POLICY = "it-jobs";
    private static final Pattern SUBMISSION = Pattern.compile("\"submissionId\":(\\d+)");

    @Test
    void aJobIsFoundByEachKeyAndTheApiAnswersTheSame() throws Exception {
        long[] ids = submit("count=2&tenant=bj1&order=b-1");
        await().atMost(Duration.ofSeconds(60)).until(() -> api("jobs/" + ids[0]).contains("\"batchStatus\":\"COMPLETED\"")
                && api("jobs/" + ids[1]).contains("\"batchStatus\":\"COMPLETED\""));
        long execution = Long.parseLong(first(api("jobs/" + ids[0]), "\"executionId\":(\\d+)"));

        WebDriver d = ConsolePages.logIn(browser, "admin");
        // from the dashboard's box, by submission id
        d.findElement(By.cssSelector("#find-job input[name=value]")).sendKeys(Long.toString(ids[0]));
        d.findElement(By.cssSelector("#find-job button")).click();
        assertThat(tableIds(d)).containsExactly(ids[0]);
        browser.screenshot(SHOTS.resolve("jobs-by-submission.png"));

        for (String[] search : List.of(
                new String[] {"execution", Long.toString(execution), null},
                new String[] {"partition", "bj1", POLICY},
                new String[] {"parameter", "order=b-1", null},
                new String[] {"job", POLICY, null})) {
            String query = "by=" + search[0] + "&value=" + enc(search[1]) + (search[2] == null ? "" : "&policy=" + enc(search[2]));
            d.get(ConsolePages.BASE + "jobs.xhtml?" + query);
            List<Long> shown = tableIds(d);
            if (search[0].equals("execution")) {
                assertThat(shown).as(query).containsExactly(ids[0]);
            } else if (search[0].equals("job")) {
                assertThat(shown).as(query).contains(ids[0], ids[1]);
            } else {
                assertThat(shown).as(query).containsExactly(ids[1], ids[0]);
            }
            // the API: the same jobs, in the same order, for the same search
            assertThat(ids(api("jobs?" + query))).as("API " + query).isEqualTo(shown);
            browser.screenshot(SHOTS.resolve("jobs-by-" + search[0] + ".png"));
        }

        // a malformed search says what to write, in the page and in the API
        d.get(ConsolePages.BASE + "jobs.xhtml?by=parameter&value=order");
        ConsolePages.waitFor(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("jobs:messages"), "name=value"));
        HttpResponse<String> refused = get("jobs?by=parameter&value=order", "admin");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("name=value");
        assertThat(get("jobs?by=submission&value=1", null).statusCode()).isEqualTo(401);
    }

    @Test
    void aFailedJobIsRestartedFromItsPageAndShowsBothExecutions() throws Exception {
        long id = submit("tenant=bf1&fail=true")[0];
        await().atMost(Duration.ofSeconds(60)).until(() -> api("jobs/" + id).contains("\"batchStatus\":\"FAILED\""));

        WebDriver viewer = ConsolePages.logIn(browser, "viewer");
        viewer.get(ConsolePages.BASE + "job.xhtml?id=" + id);
        ConsolePages.click(viewer, By.id("job:restart"));
        ConsolePages.waitFor(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("job:messages"), "Not allowed"));

        WebDriver d = ConsolePages.logIn(browser, "admin");
        d.get(ConsolePages.BASE + "jobs.xhtml?by=partition&policy=" + POLICY + "&value=bf1");
        ConsolePages.click(d, By.cssSelector("a.job-link"));
        ConsolePages.waitFor(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("job:status"), "FAILED"));
        assertThat(d.findElement(By.id("job:live")).getText()).contains("failing as asked").contains("submitted");
        ConsolePages.click(d, By.id("job:restart"));
        ConsolePages.waitFor(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("job:messages"), "staged for restart"));
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            String life = api("jobs/" + id); // each execution has a reason: the first "submitted", the restart's why
            return Pattern.compile("\"reason\":\"").matcher(life).results().count() == 2 && life.contains("\"state\":\"ADMITTED\"")
                    && !life.contains("\"batchStatus\":\"STARTED\"") && !life.contains("\"batchStatus\":\"STARTING\"");
        });

        d.get(ConsolePages.BASE + "job.xhtml?id=" + id);
        List<WebElement> executions = d.findElements(By.cssSelector(".execution"));
        assertThat(executions).hasSize(2);
        assertThat(executions.get(1).getText()).contains("restart after execution").contains("failed").contains("failing as asked");
        browser.screenshot(SHOTS.resolve("job-restarted.png"));
    }

    @Test
    void historyChartsRenderSeededMinutesAndTheApiAnswersTheSame() throws Exception {
        // three minutes ago: inside both charts' two hours, and a minute no test job lands in
        sql("INSERT INTO dispatch.partitions (policy_name, partition_key) VALUES ('it-charted', 'charted') ON CONFLICT DO NOTHING");
        sql("INSERT INTO dispatch.partition_minutes (partition_id, minute, policy_name, admitted, completed, failed) "
                + "SELECT id, date_trunc('minute', now()) - interval '3 minutes', policy_name, 917, 913, 4 FROM dispatch.partitions "
                + "WHERE policy_name = 'it-charted' AND partition_key = 'charted' ON CONFLICT DO NOTHING");
        String partitionId = partitionIdOf("charted");

        WebDriver d = ConsolePages.logIn(browser, "admin");
        d.get(ConsolePages.BASE + "partition.xhtml?id=" + partitionId);
        ConsolePages.waitFor(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".partition-history canvas")));
        List<String> partitionSeries = series(d, ".partition-history canvas");
        assertThat(partitionSeries).hasSize(3);
        assertThat(partitionSeries.get(0)).startsWith("Admitted:").containsPattern(",917(,0)+$");
        assertThat(partitionSeries.get(1)).startsWith("Completed:").containsPattern(",913(,0)+$");
        assertThat(partitionSeries.get(2)).startsWith("Failed:").containsPattern(",4(,0)+$");
        browser.screenshot(SHOTS.resolve("partition-history.png"));
        d.get(ConsolePages.BASE + "policies.xhtml");
        ConsolePages.waitFor(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".policy-history canvas")));
        assertThat(d.findElements(By.cssSelector(".policy-history .ui-panel-title")).stream().map(WebElement::getText).toList())
                .contains("it-charted");
        assertThat(d.findElements(By.cssSelector(".policy-history canvas")).stream().map(c -> c.getAttribute("id")).toList())
                .anySatisfy(id -> assertThat(series(d, "[id='" + id + "']").get(1)).contains(",913,"));
        browser.screenshot(SHOTS.resolve("policies-history.png"));

        String partition = api("partitions/" + partitionId + "/history?minutes=120");
        assertThat(Pattern.compile("\"minute\"").matcher(partition).results().count()).isEqualTo(120);
        assertThat(partition).contains("\"admitted\":917").contains("\"completed\":913").contains("\"failed\":4");
        assertThat(api("policies/it-charted/history?minutes=10")).contains("\"admitted\":917");
        assertThat(get("policies/it-charted/history?minutes=0", "admin").statusCode()).isEqualTo(400);
    }

    /** A rendered chart's series as Chart.js holds them: "label:v1,v2,…". */
    @SuppressWarnings("unchecked")
    private static List<String> series(WebDriver d, String canvas) {
        return (List<String>) ((org.openqa.selenium.JavascriptExecutor) d).executeScript("return Chart.getChart(document.querySelector("
                + "arguments[0])).data.datasets.map(s => s.label + ':' + s.data.join(','))", canvas);
    }

    private static String partitionIdOf(String key) throws java.sql.SQLException {
        try (java.sql.Connection c = connect();
             java.sql.PreparedStatement s = c.prepareStatement("SELECT id FROM dispatch.partitions WHERE policy_name = 'it-charted' "
                     + "AND partition_key = ?")) {
            s.setString(1, key);
            try (java.sql.ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static List<Long> tableIds(WebDriver d) {
        ConsolePages.waitFor(d).until(ExpectedConditions.presenceOfElementLocated(By.id("jobs:table")));
        return d.findElements(By.cssSelector("#jobs\\:table a.job-link")).stream().map(a -> Long.parseLong(a.getText().strip())).toList();
    }

    private static long[] submit(String query) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:8080/it-submit/submit?job=" + POLICY + "&" + query)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Arrays.stream(r.body().split(",")).mapToLong(Long::parseLong).toArray();
    }

    private static String api(String path) throws Exception {
        HttpResponse<String> r = get(path, "admin");
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    private static HttpResponse<String> get(String path, String user) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ConsolePages.BASE + "api/" + path)).GET();
        if (user != null) {
            String credentials = user + ":" + EmbeddedPostgresSession.TEST_ACCOUNTS.get(user).password();
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Long> ids(String json) {
        return SUBMISSION.matcher(json).results().map(m -> Long.parseLong(m.group(1))).toList();
    }

    private static String first(String json, String regex) {
        Matcher m = Pattern.compile(regex).matcher(json);
        assertThat(m.find()).as(regex + " in " + json).isTrue();
        return m.group(1);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
