package io.dispatchpolicy.browser;

import io.dispatchpolicy.devserver.EmbeddedPostgresSession;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Bulk page in a real browser (ADR 0039): jobs submitted through the write API for later are previewed by
 * filter, discarded after a confirmation, and the action's progress shows in the list; a viewer is refused.
 */
class BulkBrowserIT extends BrowserTest {

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    @Test
    void stagedJobsArePreviewedDiscardedAfterAConfirmationAndTheActionShowsItsProgress() throws Exception {
        StringBuilder jobs = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            jobs.append(i == 0 ? "" : ",").append("{\"tenant\":\"bb1\",\"n\":\"").append(i).append("\"}");
        }
        HttpResponse<String> submitted = send("POST", "jobs", "{\"job\":\"it-jobs\",\"parameters\":[" + jobs + "],\"delay\":\"PT1H\"}", "admin");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        List<Long> ids = ID.matcher(submitted.body()).results().map(m -> Long.parseLong(m.group(1))).toList();
        assertThat(ids).hasSize(30);

        WebDriver viewer = ConsolePages.logIn(browser, "viewer");
        viewer.get(ConsolePages.BASE + "bulk.xhtml");
        fill(viewer);
        ConsolePages.click(viewer, By.id("bulk:preview"));
        ConsolePages.waitFor(viewer).until(ExpectedConditions.elementToBeClickable(By.id("bulk:run")));
        ConsolePages.click(viewer, By.id("bulk:run"));
        ConsolePages.click(viewer, By.cssSelector(".ui-confirmdialog-yes"));
        ConsolePages.waitFor(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("bulk:messages"), "Not allowed"));

        // admin, not operator: ConsoleBrowserIT counts the operator's audit rows
        WebDriver d = ConsolePages.logIn(browser, "admin");
        d.get(ConsolePages.BASE + "bulk.xhtml");
        fill(d);
        ConsolePages.click(d, By.id("bulk:preview"));
        ConsolePages.waitFor(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("bulk:messages"), "30 job(s) match now"));
        assertThat(d.findElement(By.id("bulk:run")).getText()).isEqualTo("Run on 30 job(s)");
        ConsolePages.click(d, By.id("bulk:run"));
        ConsolePages.waitFor(d).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".ui-confirm-dialog")));
        assertThat(d.findElement(By.cssSelector(".ui-confirm-dialog")).getText()).contains("discard staged jobs: 30 job(s) match now");
        ConsolePages.click(d, By.cssSelector(".ui-confirmdialog-yes"));
        ConsolePages.waitFor(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("bulk:messages"), "started"));
        String started = d.findElement(By.id("bulk:messages")).getText();
        long action = Long.parseLong(started.replaceAll(".*Bulk action (\\d+) started.*", "$1"));
        // the list polls: the action ends done, all 30 discarded
        ConsolePages.waitFor(d).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".bulk-state-" + action), "done"));
        assertThat(d.findElement(By.cssSelector(".bulk-done-" + action)).getText()).isEqualTo("30 / 30");
        browser.screenshot(SHOTS.resolve("bulk-done.png"));

        for (long id : ids) {
            assertThat(send("GET", "jobs/" + id, null, "viewer").body()).contains("\"state\":\"DISCARDED\"");
        }
        assertThat(send("GET", "bulk-actions/" + action, null, "viewer").body()).contains("\"state\":\"done\"").contains("\"done\":30")
                .contains("\"requestedBy\":\"admin\"");
    }

    private static void fill(WebDriver d) {
        ConsolePages.waitFor(d).until(ExpectedConditions.presenceOfElementLocated(By.id("bulk:job")));
        d.findElement(By.id("bulk:job")).sendKeys("it-jobs");
        d.findElement(By.id("bulk:parameter")).sendKeys("tenant=bb1");
    }

    private static HttpResponse<String> send(String method, String path, String json, String user) throws Exception {
        String credentials = user + ":" + EmbeddedPostgresSession.TEST_ACCOUNTS.get(user).password();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ConsolePages.BASE + "api/" + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
