package io.dispatchpolicy.adoption;

import io.dispatchpolicy.adoption.app.ReportApplication;
import io.dispatchpolicy.adoption.app.ReportBatchlet;
import io.dispatchpolicy.adoption.app.ReportPolicies;
import io.dispatchpolicy.adoption.app.ReportResource;
import io.dispatchpolicy.adoption.app.ReportSubmitter;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.nio.file.Path;

/**
 * The user's application packaged the two ways the guide describes, from the artifacts an adopter
 * gets ({@code dispatch-ejb.jar}, the console WARs, the configuration zip) rather than this build's EAR.
 */
final class UserArchives {

    static final String JOB_XML = "adoption/batch-jobs/adopted-report.xml";

    private UserArchives() {
    }

    /**
     * {@code reports.ear}: the engine as an EJB module, the user's EJB module (policy, job, batchlet,
     * submitter), the user's REST WAR at {@code /reports} and the console at {@code /dispatch}, with the
     * {@code application.xml} the guide's maven-ear-plugin snippet generates.
     */
    static Path ear(Path artifacts, Path dir) {
        return ear(artifacts, dir, "reports.ear", null);
    }

    /**
     * As {@link #ear(Path, Path)}, named {@code name}; with {@code settings} as the engine module's
     * {@code META-INF/microprofile-config.properties} (read at boot: a bad one fails the deployment).
     */
    static Path ear(Path artifacts, Path dir, String name, String settings) {
        JavaArchive userEjb = ShrinkWrap.create(JavaArchive.class, "reports-ejb.jar")
                .addClasses(ReportPolicies.class, ReportBatchlet.class, ReportSubmitter.class)
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsManifestResource(JOB_XML, "batch-jobs/adopted-report.xml");
        WebArchive userWeb = ShrinkWrap.create(WebArchive.class, "reports-web.war")
                .addClasses(ReportResource.class, ReportApplication.class);
        JavaArchive engine = ShrinkWrap.create(ZipImporter.class, "dispatch-ejb.jar")
                .importFrom(artifacts.resolve("dispatch-ejb.jar").toFile()).as(JavaArchive.class);
        if (settings != null) {
            // the engine module's own config file: jboss-modules does not import META-INF across modules
            engine.addAsManifestResource(new StringAsset(settings), "microprofile-config.properties");
        }
        EnterpriseArchive ear = ShrinkWrap.create(EnterpriseArchive.class, name)
                .addAsModule(engine)
                .addAsModule(artifacts.resolve("dispatch-web.war").toFile(), "dispatch-web.war")
                .addAsModule(userEjb)
                .addAsModule(userWeb)
                .setApplicationXML(new StringAsset("""
                        <?xml version="1.0" encoding="UTF-8"?>
                        <application xmlns="https://jakarta.ee/xml/ns/jakartaee" version="10">
                          <display-name>reports</display-name>
                          <module><ejb>dispatch-ejb.jar</ejb></module>
                          <module><ejb>reports-ejb.jar</ejb></module>
                          <module><web><web-uri>dispatch-web.war</web-uri><context-root>/dispatch</context-root></web></module>
                          <module><web><web-uri>reports-web.war</web-uri><context-root>/reports</context-root></web></module>
                        </application>
                        """));
        return export(ear, dir);
    }

    /**
     * {@code adopted.war}: everything of the user's in one WAR, the engine in {@code WEB-INF/lib}, the
     * job XML in {@code WEB-INF/classes/META-INF/batch-jobs}; nothing of the console's (its standalone
     * WAR deploys beside it and finds the engine by name, ADR 0026).
     */
    static Path war(Path artifacts, Path dir) {
        return war(artifacts, dir, "adopted.war", null);
    }

    /** As {@link #war(Path, Path)}, named {@code name}; with {@code settings} in its MicroProfile Config file. */
    static Path war(Path artifacts, Path dir, String name, String settings) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, name)
                .addClasses(ReportPolicies.class, ReportBatchlet.class, ReportSubmitter.class, ReportResource.class,
                        ReportApplication.class)
                .addAsResource(JOB_XML, "META-INF/batch-jobs/adopted-report.xml")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsLibrary(ShrinkWrap.create(ZipImporter.class, "dispatch-ejb.jar")
                        .importFrom(artifacts.resolve("dispatch-ejb.jar").toFile()).as(JavaArchive.class));
        if (settings != null) {
            war.addAsResource(new StringAsset(settings), "META-INF/microprofile-config.properties");
        }
        return export(war, dir);
    }

    private static Path export(org.jboss.shrinkwrap.api.Archive<?> archive, Path dir) {
        Path file = dir.resolve(archive.getName());
        archive.as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }
}
