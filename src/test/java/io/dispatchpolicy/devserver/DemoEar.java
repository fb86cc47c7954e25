package io.dispatchpolicy.devserver;

import io.dispatchpolicy.demo.DemoTraffic;
import io.dispatchpolicy.demo.Feature;
import io.dispatchpolicy.demo.web.PlaygroundServlet;
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
 * The EAR the run command deploys: the built {@code dispatch.ear} as it is, plus the demo
 * ({@link io.dispatchpolicy.demo}) as an EJB module of its own, {@code dispatch-demo.jar}, the way an
 * application would add its jobs and policies, with the playground's policies and jobs; and the playground's
 * page ({@link io.dispatchpolicy.demo.web}) added to the console's WAR. Keeps the name {@code dispatch.ear}.
 */
public final class DemoEar {

    static final String NAME = "dispatch.ear";
    static final String CONSOLE = "dispatch.war";

    private DemoEar() {
    }

    /** Builds the EAR and writes it to {@code deployments/dispatch.ear}, replacing the previous run's. */
    public static Path export(Path builtEar, Path deployments) {
        EnterpriseArchive ear = ShrinkWrap.create(ZipImporter.class, NAME)
                .importFrom(builtEar.toFile())
                .as(EnterpriseArchive.class);
        JavaArchive demo = ShrinkWrap.create(JavaArchive.class, "dispatch-demo.jar")
                .addPackage(DemoTraffic.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsManifestResource("demo/batch-jobs/demo-report.xml", "batch-jobs/demo-report.xml");
        for (Feature feature : Feature.values()) {
            demo.addAsManifestResource(new StringAsset(feature.jobXml()), "batch-jobs/" + feature.job() + ".xml");
        }
        ear.addAsModule(demo);
        // The playground's page joins the console's WAR: the console's login and roles serve it, one session for both.
        WebArchive console = ear.getAsType(WebArchive.class, CONSOLE);
        console.addPackage(PlaygroundServlet.class.getPackage());
        ear.delete(CONSOLE);
        ear.addAsModule(console);
        Path target = deployments.resolve(NAME);
        ear.as(ZipExporter.class).exportTo(target.toFile(), true);
        return target;
    }
}
