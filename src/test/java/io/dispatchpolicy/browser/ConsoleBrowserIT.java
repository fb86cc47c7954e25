package io.dispatchpolicy.browser;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console in a real headless Chromium (Debian's), against the deployed application: log in,
 * read engine state, act as an admin, be refused as a viewer, and see hostile partition keys as text.
 */
class ConsoleBrowserIT extends BrowserTest {

    private static final String BASE = ConsolePages.BASE;
    private static final String XSS_KEY = "<script>window.xssRan=1</script>";

    @BeforeAll
    static void seed() throws SQLException {
        sql("INSERT INTO dispatch.partitions (policy_name, partition_key, pending_count, last_deny_reason, last_denied_at, "
                + "next_eligible_at, last_checked_at) VALUES ('it-throttle', 'denied-tenant', 3, 'throttle_empty', now(), "
                + "now() + interval '1 hour', now()) ON CONFLICT DO NOTHING");
        sql("INSERT INTO dispatch.denial_history (partition_id, policy_name, partition_key, reason, started_at, last_at, denials) "
                + "SELECT id, policy_name, partition_key, 'throttle_empty', now() - interval '5 minutes', now(), 7 FROM dispatch.partitions "
                + "WHERE policy_name = 'it-throttle' AND partition_key = 'denied-tenant' "
                + "AND NOT EXISTS (SELECT 1 FROM dispatch.denial_history h WHERE h.partition_key = 'denied-tenant')");
        sql("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES ('it-flow', ?, "
                + "jsonb_build_object('tenant', ?::text)) ON CONFLICT DO NOTHING", XSS_KEY, XSS_KEY);
        // a dead job of a policy this deployment does not declare: a retry waits (unknown_policy), never runs
        sql("INSERT INTO dispatch.partitions (policy_name, partition_key) VALUES ('browser-ghost', 'dead-tenant') ON CONFLICT DO NOTHING");
        sql("INSERT INTO dispatch.dead_jobs (submission_id, partition_id, job_name, execution_id, attempts, priority, exit_status, error) "
                + "SELECT s, id, 'ghost-job', -s, 3, 0, 'FAILED', 'step run: java.lang.IllegalStateException: boom ' || s "
                + "FROM dispatch.partitions, (VALUES (-9101), (-9102)) v(s) "
                + "WHERE policy_name = 'browser-ghost' AND partition_key = 'dead-tenant' ON CONFLICT DO NOTHING");
        sql("INSERT INTO dispatch.partitions (policy_name, partition_key, context) VALUES ('it-cap3', 'browser-override', "
                + "jsonb_build_object('tenant', 'browser-override')) ON CONFLICT DO NOTHING");
        // it-demote's rule is 5 per 10 s: 9 submissions counted in a bucket that stays inside the window
        // for the whole class (dated ahead, so the test does not race the window)
        sql("INSERT INTO dispatch.tenant_windows (policy_name, tenant, resolution_s, newest, total, older) VALUES "
                + "('it-demote', 'browser-noisy', 1, floor(extract(epoch FROM now()))::bigint + 3600, 9, '{0}') "
                + "ON CONFLICT (policy_name, tenant, resolution_s) DO NOTHING");
    }

    private static WebDriver logIn(String user) {
        return ConsolePages.logIn(browser, user);
    }


    private static void click(WebDriver d, By by) {
        ConsolePages.click(d, by);
    }


    private static WebDriverWait wait(WebDriver d) {
        return ConsolePages.waitFor(d);
    }


    private static void open(WebDriver d, String navId) {
        click(d, By.id(navId));
    }

    @Test
    void anAdminSeesStateAndPausesAndResumesAPolicy() throws SQLException {
        WebDriver d = logIn("admin");
        assertThat(d.findElement(By.id("user")).getText()).contains("admin");
        browser.screenshot(SHOTS.resolve("dashboard.png"));

        open(d, "nav-policies");
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("policies:table"), "it-throttle"));
        assertThat(d.findElement(By.id("policies:table")).getText()).contains("throttle_empty: 1");

        click(d, By.cssSelector("button.pause-it-pause"));
        click(d, By.id("policies:confirm-yes"));
        await().atMost(Duration.ofSeconds(20)).until(() -> paused("it-pause"));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("button.resume-it-pause")));

        click(d, By.cssSelector("button.resume-it-pause"));
        click(d, By.id("policies:confirm-yes"));
        await().atMost(Duration.ofSeconds(20)).until(() -> !paused("it-pause"));

        open(d, "nav-denials");
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("denials:table"), "denied-tenant"));
        assertThat(d.findElement(By.id("denials:table")).getText()).contains("throttle_empty");
        assertThat(d.findElements(By.cssSelector("#denials\\:table .denial-count")).stream().map(e -> e.getText()).toList())
                .contains("7");
    }

    @Test
    void thePoliciesPageShowsLanesAndDemotedTenants() {
        WebDriver d = logIn("viewer");
        open(d, "nav-policies");
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".lanes-it-lanes")));
        String lanes = d.findElement(By.cssSelector(".lanes-it-lanes")).getText();
        assertThat(lanes).contains("critical", "default", "bulk");
        assertThat(d.findElement(By.cssSelector(".lanes-it-lanes tr.lane-critical")).getText()).startsWith("critical 6 0");
        // lending and borrowing limits (ADR 0047)
        assertThat(d.findElement(By.cssSelector(".lanes-it-lanes-lend .lane-limits-a")).getText()).isEqualTo("a: lends at most 1 of its min");
        assertThat(d.findElement(By.cssSelector(".lanes-it-lanes-borrow .lane-limits-b")).getText()).isEqualTo("b: borrows at most 2 beyond its share");
        // named limits (ADR 0049): their page
        open(d, "nav-limits");
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".limit-it-crm")));
        assertThat(d.findElement(By.cssSelector(".limit-it-crm .limit-values")).getText()).isEqualTo("5 in flight per tenant · 8 in flight in all");
        assertThat(d.findElement(By.cssSelector(".limit-it-crm .limit-policies")).getText()).isEqualTo("Used by: it-limit-a, it-limit-b");
        open(d, "nav-policies");
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".lanes-it-lanes")));
        assertThat(d.findElement(By.cssSelector(".demoted-it-demote")).getText())
                .contains("browser-noisy", "slow", "rule 5:10:slow", "9 submissions");
        // each gate with its values, and the top partitions link to their pages
        assertThat(d.findElement(By.cssSelector(".gates-it-throttle")).getText()).isEqualTo("throttle: rate 10, per 60 s");
        // (it-throttle has pending partitions: the seeded one at least; which ranks first depends on other tests)
        By topOfThrottle = By.xpath("//tr[.//div[contains(@class,'gates-it-throttle')]]//a[contains(@class,'top-pending')]");
        String key = d.findElement(topOfThrottle).getText();
        click(d, topOfThrottle);
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("partition:key")));
        assertThat(d.findElement(By.id("partition:key")).getText()).isEqualTo(key);
        // the partition's address is bookmarkable: opened again from outside the console, it shows the same partition
        String address = d.getCurrentUrl();
        d.get("about:blank");
        d.get(address);
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("partition:key")));
        assertThat(d.findElement(By.id("partition:key")).getText()).isEqualTo(key);
    }

    @Test
    void aPartitionShowsWhyItWaits() {
        WebDriver d = logIn("admin");
        open(d, "nav-partitions");
        d.findElement(By.id("partitions:search")).sendKeys("denied-tenant");
        click(d, By.id("partitions:apply"));
        click(d, By.linkText("denied-tenant"));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("partition:waiting")));
        assertThat(d.findElement(By.id("partition:waiting")).getText()).contains("Waiting on throttle_empty until");
        browser.screenshot(SHOTS.resolve("partition.png"));
    }

    @Test
    void anErrorIsAPageThatSaysSoNeverAStackTrace() {
        WebDriver d = logIn("viewer");
        d.get(BASE + "no-such-page.xhtml");
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("error-message")));
        assertThat(d.findElement(By.id("error-message")).getText()).isEqualTo("There is no such page.");
        assertThat(d.getPageSource()).contains("The console could not answer this request")
                .doesNotContain("Caused by").doesNotContain("\tat ").doesNotContain(".java:");
        // the dashboard says since when this node's last tick succeeded (and would say the database is away)
        d.get(BASE);
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("total-pending")));
        assertThat(d.getPageSource()).contains("last successful tick of node it-node");
    }

    @Test
    void aHostilePartitionKeyIsShownAsText() {
        WebDriver d = logIn("admin");
        open(d, "nav-partitions");
        d.findElement(By.id("partitions:search")).sendKeys("xssRan");
        click(d, By.id("partitions:apply"));
        click(d, By.linkText(XSS_KEY));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("partition:key")));
        assertThat(d.findElement(By.id("partition:key")).getText()).isEqualTo(XSS_KEY);
        assertThat(((JavascriptExecutor) d).executeScript("return window.xssRan === undefined")).isEqualTo(true);
    }

    /** An override set in the partition page's form (ADR 0025): a bad value is named beside its field, a good one shown. */
    @Test
    void anAdminCreatesACalendarInTheConsoleAndABadDateIsNamed() throws SQLException {
        WebDriver d = logIn("admin");
        d.get(BASE + "schedules.xhtml");
        click(d, By.id("schedules:calendars-link"));
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("calendars:save")));
        d.findElement(By.id("calendars:name")).sendKeys("browser-cal");
        d.findElement(By.id("calendars:zone")).clear();
        d.findElement(By.id("calendars:zone")).sendKeys("Europe/Paris");
        d.findElement(By.id("calendars:dates")).sendKeys("2027-02-30");
        click(d, By.id("calendars:save"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("calendars:messages"),
                "Calendar 'browser-cal': dates: '2027-02-30' is not a date like 2027-05-01"));
        assertThat(count("SELECT count(*) FROM dispatch.calendars WHERE name = 'browser-cal'")).isZero();

        d.findElement(By.id("calendars:dates")).clear();
        d.findElement(By.id("calendars:dates")).sendKeys("2027-12-24");
        d.findElement(By.id("calendars:days")).sendKeys("sat, sun");
        click(d, By.id("calendars:save"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("calendars:messages"), "Calendar browser-cal saved"));
        assertThat(d.findElement(By.id("calendars:list")).getText()).contains("browser-cal").contains("console")
                .contains("days: SATURDAY, SUNDAY").contains("dates: 2027-12-24");
        assertThat(count("SELECT count(*) FROM dispatch.calendars WHERE name = 'browser-cal' AND source = 'console' "
                + "AND days = 'SATURDAY, SUNDAY' AND zone = 'Europe/Paris'")).isEqualTo(1);
        browser.screenshot(SHOTS.resolve("calendars.png"));
        sql("DELETE FROM dispatch.calendars WHERE name = 'browser-cal'");
    }

    @Test
    void anOverrideIsSetInThePartitionPageAndABadValueIsNamedAtItsField() throws SQLException {
        WebDriver d = logIn("admin");
        long id = count("SELECT id FROM dispatch.partitions WHERE policy_name = 'it-cap3' AND partition_key = 'browser-override'");
        d.get(BASE + "partition.xhtml?id=" + id);
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("partition:override-target")));
        assertThat(d.findElement(By.id("partition:override-table")).getText()).contains("None: the policy's values apply.");
        new org.openqa.selenium.support.ui.Select(d.findElement(By.id("partition:override-target"))).selectByValue("gate|concurrency|max");
        d.findElement(By.id("partition:override-value")).sendKeys("-3");
        d.findElement(By.id("partition:override-until")).sendKeys("+1h");
        click(d, By.id("partition:set-override"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("partition:override-value-message"),
                "'max' must be >= 0, was -3"));
        assertThat(count("SELECT count(*) FROM dispatch.partitions WHERE id = " + id + " AND overrides IS NOT NULL")).isZero();

        d.findElement(By.id("partition:override-value")).clear();
        d.findElement(By.id("partition:override-value")).sendKeys("5");
        click(d, By.id("partition:set-override"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("partition:messages"), "Override set: gate concurrency max 5 until"));
        String table = d.findElement(By.id("partition:override-table")).getText();
        assertThat(table).contains("gate concurrency · max").contains("admin");
        assertThat(d.findElement(By.id("partition:override-table:0:override-value-shown")).getText()).isEqualTo("5");
        browser.screenshot(SHOTS.resolve("partition-override.png"));
        click(d, By.id("partition:override-table:0:clear-override"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("partition:messages"), "Override cleared"));
        assertThat(count("SELECT count(*) FROM dispatch.audit_log WHERE actor = 'admin' AND action = 'PARTITION_OVERRIDE' "
                + "AND target = '" + id + "'")).isEqualTo(3);
    }

    @Test
    void aViewerIsRefusedActions() throws SQLException {
        WebDriver d = logIn("viewer");
        assertThat(d.findElement(By.id("user")).getText()).contains("viewer");
        open(d, "nav-policies");
        click(d, By.cssSelector("button.pause-it-pause"));
        click(d, By.id("policies:confirm-yes"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("policies:messages"), "Not allowed"));
        assertThat(paused("it-pause")).isFalse();
    }

    /**
     * The console's half of the permission matrix (PermissionsIT has every action): an operator pauses and
     * resumes a policy but may not change a schedule, and the Audit page shows who did what.
     */
    @Test
    void anOperatorActsOnPoliciesButNotOnSchedulesAndTheAuditPageShowsIt() throws SQLException {
        WebDriver d = logIn("operator");
        assertThat(d.findElement(By.id("user")).getText()).contains("operator (operator)");
        open(d, "nav-policies");
        click(d, By.cssSelector("button.pause-it-pause"));
        click(d, By.id("policies:confirm-yes"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("policies:messages"), "Policy it-pause paused"));
        assertThat(paused("it-pause")).isTrue();
        click(d, By.cssSelector("button.resume-it-pause"));
        click(d, By.id("policies:confirm-yes"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("policies:messages"), "Policy it-pause resumed"));
        assertThat(paused("it-pause")).isFalse();

        d.get(BASE + "schedule.xhtml?name=it-declared");
        click(d, By.id("schedule:skipNext"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule:messages"), "Not allowed: only dispatch-admin"));

        open(d, "nav-audit");
        wait(d).until(ExpectedConditions.presenceOfElementLocated(By.id("audit:actor"))).sendKeys("operator");
        click(d, By.id("audit:apply"));
        // the unfiltered page holds every user's rows; filtered, the operator's three
        wait(d).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(x -> x.findElements(By.cssSelector("tr.audit-done, tr.audit-refused, tr.audit-failed")).stream()
                .allMatch(row -> row.getText().contains("operator")));
        String table = d.findElement(By.id("audit:table")).getText();
        assertThat(d.findElements(By.cssSelector("tr.audit-done, tr.audit-refused, tr.audit-failed"))).hasSize(3);
        assertThat(table).contains("SCHEDULE_SKIP").contains("POLICY_PAUSE").contains("POLICY_RESUME").contains("refused")
                .contains("it-declared");
        browser.screenshot(SHOTS.resolve("audit.png"));
        assertThat(count("SELECT count(*) FROM dispatch.audit_log WHERE actor = 'operator'")).isEqualTo(3);
        assertThat(count("SELECT count(*) FROM dispatch.audit_log WHERE actor = 'operator' AND action = 'SCHEDULE_SKIP' "
                + "AND outcome = 'refused'")).isEqualTo(1);
    }

    @Test
    void anAdminRetriesADeadJobNowAndAViewerCannot() throws SQLException {
        WebDriver viewer = logIn("viewer");
        open(viewer, "nav-dead");
        wait(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("dead:table"), "boom -9102"));
        click(viewer, By.cssSelector("button.retry--9102"));
        wait(viewer).until(ExpectedConditions.textToBePresentInElementLocated(By.id("dead:messages"), "Not allowed"));
        assertThat(count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = -9102")).isEqualTo(1);

        WebDriver d = logIn("admin");
        assertThat(Long.parseLong(d.findElement(By.id("dash:total-dead")).getText())).isGreaterThanOrEqualTo(2);
        open(d, "nav-dead");
        d.findElement(By.id("dead:text")).sendKeys("boom -910");
        click(d, By.id("dead:apply"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("dead:table"), "boom -9101"));
        browser.screenshot(SHOTS.resolve("dead.png"));
        click(d, By.cssSelector("button.retry--9102"));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("dead:messages"), "Retrying 1 of 1"));
        assertThat(count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = -9102")).isZero();
        assertThat(count("SELECT attempt FROM dispatch.staged_jobs WHERE id = -9102 AND restart_of = 9102")).isEqualTo(4);
        assertThat(d.findElement(By.id("dead:table")).getText()).doesNotContain("boom -9102").contains("boom -9101");

        // (a JavaScript click: a wide error column can push the row's buttons out of a narrow headless window)
        ((JavascriptExecutor) d).executeScript("arguments[0].click()",
                wait(d).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("button.discard--9101"))));
        wait(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("dead:messages"), "Discarded 1 of 1"));
        assertThat(count("SELECT count(*) FROM dispatch.dead_jobs WHERE submission_id = -9101")).isZero();
        sql("DELETE FROM dispatch.staged_jobs WHERE id = -9102");
        sql("UPDATE dispatch.partitions SET pending_count = 0, top_priority = 0 WHERE policy_name = 'browser-ghost'");
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private static boolean paused(String policy) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT paused_at IS NOT NULL FROM dispatch.policies WHERE name = ?")) {
            s.setString(1, policy);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
