package io.dispatchpolicy.browser;

import io.dispatchpolicy.it.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;

/** A browser test class: the application deployed as it ships, one headless Chromium for the class, screenshots kept. */
@ExtendWith(ArquillianExtension.class)
abstract class BrowserTest {

    static final Path SHOTS = Path.of(System.getProperty("dispatch.screenshots", "target/screenshots"));

    static Browser browser;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return Deployments.ear();
    }

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }
}
