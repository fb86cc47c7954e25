package io.dispatchpolicy.demo;

import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.persistence.DatabaseOutage;
import jakarta.batch.operations.JobOperator;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * When the demo is enabled: every two seconds a few tenants submit reports through the governed
 * operator, and every forty seconds one tenant bursts 60 at once, so the console shows the throttle
 * and the concurrency cap holding it while the others flow.
 */
@Singleton
@Startup
public class DemoTraffic {

    private static final Logger LOG = Logger.getLogger(DemoTraffic.class.getName());
    private static final String[] TENANTS = {"acme", "globex", "initech", "umbrella", "hooli"};

    @Inject
    DispatchSettings settings;

    @Inject
    @Governed
    JobOperator jobs;

    @Inject
    DatabaseOutage outage;

    private int calls;

    @Schedule(hour = "*", minute = "*", second = "*/2", persistent = false, info = "dispatch demo traffic")
    void submit() {
        if (!settings.demoEnabled() || outage.isDown()) {
            return;
        }
        try {
            burst();
        } catch (RuntimeException e) {
            if (!outage.absorbs(e)) {
                LOG.warning(() -> "Demo traffic could not submit: " + e);
            }
        }
    }

    private void burst() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 3; i++) {
            report(TENANTS[random.nextInt(TENANTS.length)], random);
        }
        if (calls++ % 20 == 0) {
            String noisy = TENANTS[random.nextInt(TENANTS.length)];
            for (int i = 0; i < 60; i++) {
                report(noisy, random);
            }
        }
    }

    private void report(String tenant, ThreadLocalRandom random) {
        Properties p = new Properties();
        p.setProperty("tenant", tenant);
        p.setProperty("millis", Integer.toString(100 + random.nextInt(400)));
        jobs.start(DemoPolicies.JOB, p);
    }
}
