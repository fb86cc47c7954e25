package io.dispatchpolicy.demo;

import io.dispatchpolicy.api.Governed;
import io.dispatchpolicy.config.DispatchSettings;
import jakarta.batch.operations.JobOperator;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/** Every two seconds, when the demo is enabled, a few tenants submit reports through the governed operator. */
@Singleton
@Startup
public class DemoTraffic {

    private static final String[] TENANTS = {"acme", "globex", "initech", "umbrella", "hooli"};

    @Inject
    DispatchSettings settings;

    @Inject
    @Governed
    JobOperator jobs;

    @Schedule(hour = "*", minute = "*", second = "*/2", persistent = false, info = "dispatch demo traffic")
    void submit() {
        if (!settings.demoEnabled()) {
            return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 3; i++) {
            Properties p = new Properties();
            p.setProperty("tenant", TENANTS[random.nextInt(TENANTS.length)]);
            p.setProperty("millis", Integer.toString(100 + random.nextInt(400)));
            jobs.start(DemoPolicies.JOB, p);
        }
    }
}
