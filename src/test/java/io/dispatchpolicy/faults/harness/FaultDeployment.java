package io.dispatchpolicy.faults.harness;

import io.dispatchpolicy.faults.app.FaultPolicies;
import io.dispatchpolicy.faults.web.StormResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.net.URL;
import java.nio.file.Path;

/**
 * The EAR the fault server deploys: the built {@code dispatch.ear} as it is, plus an EJB module with
 * the fault policies, their job XMLs and batchlets, and the {@code /fault}
 * WAR the harness submits through. Keeps the name {@code dispatch.ear}, so JBeret sees the same
 * application name as in production.
 */
public final class FaultDeployment {

    private FaultDeployment() {
    }

    /** Builds the EAR and writes it to {@code dir/dispatch.ear}. */
    public static Path export(Path builtEar, Path dir) {
        EnterpriseArchive ear = ShrinkWrap.create(ZipImporter.class, "dispatch.ear")
                .importFrom(builtEar.toFile())
                .as(EnterpriseArchive.class);
        JavaArchive jobs = ShrinkWrap.create(JavaArchive.class, "fault-jobs.jar")
                .addPackage(FaultPolicies.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-job.xml"), "batch-jobs/fault-job.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-failing.xml"), "batch-jobs/fault-failing.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-capped-job.xml"), "batch-jobs/fault-capped-job.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-sharded-job.xml"), "batch-jobs/fault-sharded-job.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-ungoverned.xml"), "batch-jobs/fault-ungoverned.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-pause.xml"), "batch-jobs/fault-pause.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-unique.xml"), "batch-jobs/fault-unique.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-items.xml"), "batch-jobs/fault-items.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-limit-a.xml"), "batch-jobs/fault-limit-a.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-limit-b.xml"), "batch-jobs/fault-limit-b.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-cont-a.xml"), "batch-jobs/fault-cont-a.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-cont-b.xml"), "batch-jobs/fault-cont-b.xml")
                .addAsManifestResource(resource("faults/batch-jobs/fault-cont-c.xml"), "batch-jobs/fault-cont-c.xml");
        WebArchive web = ShrinkWrap.create(WebArchive.class, "fault.war")
                .addPackage(StormResource.class.getPackage())
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
        ear.addAsModule(jobs);
        ear.addAsModule(web);
        Path target = dir.resolve("dispatch.ear");
        ear.as(ZipExporter.class).exportTo(target.toFile(), true);
        return target;
    }

    private static URL resource(String name) {
        URL url = FaultDeployment.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("Missing test resource " + name);
        }
        return url;
    }
}
