package io.dispatchpolicy.browser;

import io.dispatchpolicy.it.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

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

    /** A statement on the test database (seeding what a test reads). */
    static void sql(String sql, Object... args) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            s.executeUpdate();
        }
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("dispatch.test.db.url"),
                System.getProperty("dispatch.test.db.user"), System.getProperty("dispatch.test.db.password"));
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }
}
