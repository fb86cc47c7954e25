package io.dispatchpolicy.browser;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for browser tests, using Debian's {@code chromium} and {@code chromium-driver}
 * packages only (never Selenium Manager, never a downloaded browser). Use it with try-with-resources:
 * {@code try (Browser b = Browser.start()) { b.driver().get(url); }}.
 */
public final class Browser implements AutoCloseable {

    public static final String CHROMIUM = "/usr/bin/chromium";
    public static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final String SCRIPT = "src/test/browser/install-chromium.sh";

    private static boolean installed;

    private final WebDriver driver;
    private final Path profileDir;

    private Browser(WebDriver driver, Path profileDir) {
        this.driver = driver;
        this.profileDir = profileDir;
    }

    /** Installs Chromium if needed (once per JVM) and starts a fresh headless browser. */
    public static Browser start() {
        ensureInstalled();
        // Point Selenium at the system driver so it never falls back to Selenium Manager.
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        Path profile;
        try {
            profile = Files.createTempDirectory("chromium-profile-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create Chromium profile dir", e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1400,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new Browser(driver, profile);
    }

    public WebDriver driver() {
        return driver;
    }

    /** Saves a PNG screenshot of the current page to {@code target}, creating parent directories. */
    public static Path screenshot(WebDriver driver, Path target) {
        try {
            Path parent = target.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            File png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(png.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new IllegalStateException("cannot save screenshot to " + target, e);
        }
    }

    public Path screenshot(Path target) {
        return screenshot(driver, target);
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            deleteQuietly(profileDir);
        }
    }

    /** Runs {@code install-chromium.sh} once per JVM; fails if Chromium cannot be made available. */
    public static synchronized void ensureInstalled() {
        if (installed) {
            return;
        }
        Path script = findScript();
        try {
            Process p = new ProcessBuilder("bash", script.toString()).inheritIO().start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(script + " timed out");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(script + " failed with exit code " + p.exitValue());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + script, e);
        }
        installed = true;
    }

    private static Path findScript() {
        String root = System.getProperty("dispatch.root.dir");
        if (root != null && !root.isBlank()) {
            Path script = Paths.get(root).resolve(SCRIPT);
            if (Files.isRegularFile(script)) {
                return script;
            }
            throw new IllegalStateException("dispatch.root.dir=" + root + " has no " + SCRIPT);
        }
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve(SCRIPT);
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        throw new IllegalStateException("cannot find " + SCRIPT + " above " + Paths.get("").toAbsolutePath()
                + "; set -Ddispatch.root.dir=<project root>");
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // best effort: a leftover temp profile is harmless
        }
    }
}
