package io.dispatchpolicy.browser;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Schedules view in a real headless Chromium (Debian's), against the deployed application: an
 * admin creates a cron schedule, sees its next run times, skips one and disables it; a viewer sees it
 * and is refused; a declared schedule cannot be edited or deleted from the console.
 */
class ScheduleBrowserIT extends BrowserTest {

    private static final String BASE = ConsolePages.BASE;
    /** Unique per run: the test database is shared by the system tests and outlives a deployment. */
    private static final String NAME = "browser-weekdays-" + Long.toString(System.currentTimeMillis(), 36);
    /** Ungoverned (it runs through the pass-through policy); without parameters its batchlet does nothing. */
    private static final String JOB = "it-scheduled";
    private static final String CRON = "0 8 * * MON-FRI";
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    /** Declared in code by the system tests' {@code TestSchedules}. */
    private static final String DECLARED = "it-declared";
    private static final By NEXT_RUNS = By.cssSelector("[id='schedule:nextRuns'] .next-run");

    private static WebDriver logIn(String user) {
        return ConsolePages.logIn(browser, user);
    }

    private static void click(WebDriver d, By by) {
        ConsolePages.click(d, by);
    }


    /** Replaces an input's text, retrying while an ajax update replaces the input. */
    private static void type(WebDriver d, String id, String text) {
        wait(d).ignoring(StaleElementReferenceException.class).ignoring(ElementNotInteractableException.class)
                .ignoring(NoSuchElementException.class).until(driver -> {
            WebElement input = driver.findElement(By.id(id));
            input.clear();
            input.sendKeys(text);
            return text.equals(input.getDomProperty("value"));
        });
    }

    /** The texts of the elements found, once they satisfy {@code until}. */
    private static List<String> texts(WebDriver d, By by, Predicate<List<String>> until) {
        return wait(d).ignoring(StaleElementReferenceException.class).until(driver -> {
            List<String> texts = driver.findElements(by).stream().map(WebElement::getText).map(String::strip).toList();
            return until.test(texts) ? texts : null;
        });
    }

    private static WebDriverWait wait(WebDriver d) {
        return ConsolePages.waitFor(d);
    }


    private static void open(WebDriver d, String navId) {
        click(d, By.id(navId));
    }

    private static void openSchedule(WebDriver d, String name) {
        open(d, "nav-schedules");
        click(d, By.linkText(name));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:name"), name));
    }

    @Test
    void anAdminCreatesSkipsAndDisablesACronScheduleAndAViewerIsRefused() throws SQLException {
        WebDriver d = logIn("admin");
        open(d, "nav-schedules");
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("schedules:table")));
        click(d, By.id("schedules:create"));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("scheduleForm:name")));
        type(d, "scheduleForm:name", NAME);
        type(d, "scheduleForm:jobName", JOB);
        click(d, By.xpath("//label[normalize-space()='on a cron expression']"));
        wait(d).until(ExpectedConditions.visibilityOfElementLocated(By.id("scheduleForm:cron")));
        type(d, "scheduleForm:cron", CRON);

        // a zone that is no region id: the form names the field and keeps what was typed; nothing is created
        type(d, "scheduleForm:zone", "Mars/Olympus_Mons");
        click(d, By.id("scheduleForm:save"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("scheduleForm:messages"), "zone 'Mars/Olympus_Mons'"));
        assertThat(d.findElement(By.id("scheduleForm:name")).getDomProperty("value")).isEqualTo(NAME);
        assertThat(d.findElement(By.id("scheduleForm:cron")).getDomProperty("value")).isEqualTo(CRON);
        assertThat(count("SELECT count(*) FROM dispatch.schedules WHERE name = ?", NAME)).isZero();

        type(d, "scheduleForm:zone", "America/New_York");
        click(d, By.id("scheduleForm:save"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:name"), NAME));
        assertThat(count("SELECT count(*) FROM dispatch.schedules WHERE name = ? AND source = 'console' AND cron = ? "
                + "AND zone = 'America/New_York' AND enabled", NAME, CRON)).isEqualTo(1);

        // exactly three next run times, each 08:00 in New York on a weekday: 12:00Z in summer, 13:00Z in winter
        List<String> runs = texts(d, NEXT_RUNS, t -> t.size() == 3);
        assertWeekdayMornings(runs);
        browser.screenshot(SHOTS.resolve("schedule.png"));

        // the list shows the same three
        open(d, "nav-schedules");
        assertThat(texts(d, By.cssSelector("tr.schedule-" + NAME + " .next-run"), t -> t.size() == 3)).isEqualTo(runs);
        assertThat(d.findElement(By.cssSelector("tr.schedule-" + NAME)).getText()).contains(JOB, "cron " + CRON, "America/New_York");
        browser.screenshot(SHOTS.resolve("schedules.png"));

        // skip the next run: it is listed as skipped, and the former second run comes first
        click(d, By.linkText(NAME));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:name"), NAME));
        click(d, By.id("schedule:skipNext"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:messages"),
                "Skipped the run of " + NAME + " at " + runs.get(0)));
        List<String> afterSkip = texts(d, NEXT_RUNS, t -> t.size() == 3 && t.get(0).equals(runs.get(1)));
        assertThat(afterSkip.get(1)).isEqualTo(runs.get(2));
        assertWeekdayMornings(afterSkip);
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:skipped"), runs.get(0)));
        assertThat(count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = ? AND o.state = 'skipped'", NAME)).isEqualTo(1);

        // disable: no next run times, no staged occurrence
        click(d, By.id("schedule:disable"));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("schedule:enable")));
        texts(d, NEXT_RUNS, List::isEmpty);
        assertThat(d.findElement(By.id("schedule:nextRuns")).getText()).contains("disabled");
        assertThat(enabled(NAME)).isFalse();
        assertThat(count("SELECT count(*) FROM dispatch.staged_jobs WHERE schedule_id = (SELECT id FROM dispatch.schedules "
                + "WHERE name = ?)", NAME)).isZero();
        open(d, "nav-schedules");
        texts(d, By.cssSelector("tr.schedule-" + NAME + " .next-runs"), t -> t.size() == 1 && t.get(0).contains("disabled"));

        // a viewer sees the schedule, and is refused its actions on the server
        WebDriver viewer = logIn("viewer");
        open(viewer, "nav-schedules");
        wait(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedules:table"), NAME));
        click(viewer, By.linkText(NAME));
        wait(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:name"), NAME));
        click(viewer, By.id("schedule:enable"));
        wait(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:messages"), "Not allowed"));
        assertThat(viewer.findElement(By.id("schedule:messages")).getText()).contains("may enable schedules");
        assertThat(enabled(NAME)).isFalse();
        click(viewer, By.id("schedule:runNow"));
        click(viewer, By.id("schedule:confirm-yes"));
        wait(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:messages"), "may run schedules now"));
        assertThat(count("SELECT count(*) FROM dispatch.schedule_occurrences o JOIN dispatch.schedules s ON s.id = o.schedule_id "
                + "WHERE s.name = ? AND o.kind = 'extra'", NAME)).isZero();

        // an admin deletes it, after confirming; its past occurrences stay
        long id = count("SELECT id FROM dispatch.schedules WHERE name = ?", NAME);
        d = logIn("admin");
        openSchedule(d, NAME);
        click(d, By.id("schedule:delete"));
        click(d, By.id("schedule:confirm-yes"));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("schedules:table")));
        wait(d).until(ExpectedConditions.not(ExpectedConditions.textToBePresentInElementLocated(By.id("schedules:table"), NAME)));
        assertThat(count("SELECT count(*) FROM dispatch.schedules WHERE name = ?", NAME)).isZero();
        // the skipped run and the one the disable superseded
        assertThat(count("SELECT count(*) FROM dispatch.schedule_occurrences WHERE schedule_id = ?", id)).isEqualTo(2);
    }

    @Test
    void aDeclaredScheduleIsNotEditedOrDeletedInTheConsole() {
        WebDriver d = logIn("admin");
        open(d, "nav-schedules");
        // the engine records code declarations at its start and on each watchdog pass
        wait(d).until(driver -> {
            if (!driver.findElements(By.linkText(DECLARED)).isEmpty()) {
                return true;
            }
            driver.navigate().refresh();
            return false;
        });
        click(d, By.linkText(DECLARED));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("schedule:declared")));
        assertThat(d.findElement(By.id("schedule:declared")).getText()).contains("declared in code");
        assertThat(d.findElements(By.id("schedule:edit"))).isEmpty();
        assertThat(d.findElements(By.id("schedule:delete"))).isEmpty();
        assertThat(d.findElements(By.id("schedule:skipNext"))).hasSize(1);
    }

    /** Three strictly increasing run times, each 08:00:00 in New York on a weekday, shown in UTC. */
    private static void assertWeekdayMornings(List<String> runs) {
        assertThat(runs).hasSize(3);
        Instant previous = Instant.MIN;
        for (String run : runs) {
            Instant t = Instant.parse(run);
            ZonedDateTime utc = t.atZone(ZoneOffset.UTC);
            assertThat(utc.getHour()).as(run).isIn(12, 13);
            assertThat(utc.getMinute()).as(run).isZero();
            assertThat(utc.getSecond()).as(run).isZero();
            ZonedDateTime local = t.atZone(NEW_YORK);
            assertThat(local.getHour()).as(run).isEqualTo(8);
            assertThat(local.getDayOfWeek()).as(run).isNotIn(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);
            assertThat(utc.getDayOfWeek()).as(run).isNotIn(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);
            assertThat(t).as(run).isAfter(previous);
            previous = t;
        }
    }

    private static boolean enabled(String schedule) throws SQLException {
        return count("SELECT count(*) FROM dispatch.schedules WHERE name = ? AND enabled", schedule) == 1;
    }

    private static long count(String sql, Object... args) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }
}
