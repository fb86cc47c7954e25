package io.dispatchpolicy.it;

import org.jboss.arquillian.container.test.api.Testable;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The system tests' deployment: the EAR exactly as built, plus an EJB module with the tests, their
 * fixtures and the {@code it-*} job XMLs, a WAR for Arquillian's test runner, and the assertion
 * libraries as EAR libraries.
 */
public final class Deployments {

    private Deployments() {
    }

    public static EnterpriseArchive ear() {
        return ear(false);
    }

    /** With {@code bench}, also the benchmark harness and its jobs. */
    public static EnterpriseArchive ear(boolean bench) {
        EnterpriseArchive ear = ShrinkWrap.create(ZipImporter.class, "dispatch.ear")
                .importFrom(new File(System.getProperty("dispatch.ear")))
                .as(EnterpriseArchive.class);
        JavaArchive tests = ShrinkWrap.create(JavaArchive.class, "dispatch-tests.jar")
                .addPackage(Deployments.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
        addJobs(tests, "it/batch-jobs");
        if (bench) {
            tests.addPackage("io.dispatchpolicy.bench");
            addJobs(tests, "bench/batch-jobs");
        }
        ear.addAsModule(tests);
        // tests outside the server (the browser's) submit through the policy here, as an application would; webhooks
        // post here (WebhookInbox, left out of the WAR, is the tests' module's class: the tests read what was received)
        ear.addAsModule(ShrinkWrap.create(WebArchive.class, "it-submit.war").addClasses(SubmitServlet.class, WebhookReceiver.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml"));
        // Arquillian's test runner servlet goes into a WAR of its own: the console's WAR requires a login.
        ear.addAsModule(Testable.archiveToTest(ShrinkWrap.create(WebArchive.class, "arquillian-runner.war")));
        ear.addAsLibraries(jarOf(org.awaitility.Awaitility.class), jarOf(org.hamcrest.Matcher.class),
                jarOf(org.assertj.core.api.Assertions.class));
        return ear;
    }

    private static void addJobs(JavaArchive archive, String dir) {
        try (Stream<Path> jobs = Files.list(resource(dir))) {
            jobs.forEach(job -> archive.addAsManifestResource(job.toFile(), "batch-jobs/" + job.getFileName()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path resource(String name) {
        try {
            return Path.of(Deployments.class.getClassLoader().getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static File jarOf(Class<?> type) {
        try {
            return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
