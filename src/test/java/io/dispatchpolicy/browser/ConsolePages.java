package io.dispatchpolicy.browser;

import io.dispatchpolicy.devserver.EmbeddedPostgresSession;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;

/** What every browser test does with the console: log in, click through ajax updates, wait. */
final class ConsolePages {

    static final String BASE = "http://localhost:8080/dispatch/";

    private ConsolePages() {
    }

    /** Logs in through the form as one of the test accounts, with live refresh off. */
    static WebDriver logIn(Browser browser, String user) {
        WebDriver d = browser.driver();
        d.manage().deleteAllCookies();
        d.get(BASE);
        d.findElement(By.id("j_username")).sendKeys(user);
        d.findElement(By.id("j_password")).sendKeys(EmbeddedPostgresSession.TEST_ACCOUNTS.get(user).password());
        d.findElement(By.id("login-button")).click();
        waitFor(d).until(ExpectedConditions.presenceOfElementLocated(By.id("total-pending")));
        // live refresh off: a refresh re-rendering a table under the test's cursor proves nothing
        ((JavascriptExecutor) d).executeScript("window.sessionStorage.setItem('dispatch.refresh-seconds', '0')");
        return d;
    }

    /** Clicks once the element is there and visible, retrying while an ajax update replaces it. */
    static void click(WebDriver d, By by) {
        waitFor(d).ignoring(StaleElementReferenceException.class).ignoring(ElementNotInteractableException.class)
                .ignoring(ElementClickInterceptedException.class).ignoring(NoSuchElementException.class).until(driver -> {
            driver.findElement(by).click();
            return true;
        });
    }

    static WebDriverWait waitFor(WebDriver d) {
        return new WebDriverWait(d, Duration.ofSeconds(20));
    }
}
