package io.dispatchpolicy.devserver;

import io.dispatchpolicy.demo.DemoTraffic;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

import java.nio.file.Path;

/**
 * The EAR the run command deploys: the built {@code dispatch.ear} as it is, plus the demo
 * ({@link io.dispatchpolicy.demo}) as an EJB module of its own, {@code dispatch-demo.jar}, the way an
 * application would add its jobs and policies. Keeps the name {@code dispatch.ear}.
 */
public final class DemoEar {

    static final String NAME = "dispatch.ear";

    private DemoEar() {
    }

    /** Builds the EAR and writes it to {@code deployments/dispatch.ear}, replacing the previous run's. */
    public static Path export(Path builtEar, Path deployments) {
        EnterpriseArchive ear = ShrinkWrap.create(ZipImporter.class, NAME)
                .importFrom(builtEar.toFile())
                .as(EnterpriseArchive.class);
        ear.addAsModule(ShrinkWrap.create(JavaArchive.class, "dispatch-demo.jar")
                .addPackage(DemoTraffic.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsManifestResource("demo/batch-jobs/demo-report.xml", "batch-jobs/demo-report.xml"));
        Path target = deployments.resolve(NAME);
        ear.as(ZipExporter.class).exportTo(target.toFile(), true);
        return target;
    }
}
