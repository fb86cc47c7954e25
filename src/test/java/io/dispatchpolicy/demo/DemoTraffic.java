package io.dispatchpolicy.demo;

import io.dispatchpolicy.api.Governed;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.batch.operations.JobOperator;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;

/**
 * Every two seconds a few tenants submit reports through the governed operator, and every forty
 * seconds one tenant bursts 60 at once, so the console shows the throttle and the concurrency cap
 * holding it while the others flow.
 */
@Singleton
@Startup
public class DemoTraffic {

    private static final Logger LOG = Logger.getLogger(DemoTraffic.class.getName());
    private static final String[] TENANTS = {"acme", "globex", "initech", "umbrella", "hooli"};
    private static final Duration QUIET_FOR = Duration.ofMinutes(1);

    @Inject
    @Governed
    JobOperator jobs;

    @Resource
    ManagedThreadFactory threads;

    private int calls;
    private long lastWarning;
    private boolean failing;

    private volatile boolean stopping;
    private Thread loop;

    // A thread of its own rather than a container timer: stopped and joined here, so a stop never has
    // a timer fire into a bean that is shutting down.
    @PostConstruct
    void start() {
        loop = threads.newThread(() -> {
            while (!stopping) {
                submit();
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
            }
        });
        loop.setName("dispatch-demo-traffic");
        loop.start();
    }

    @PreDestroy
    void stop() {
        stopping = true;
        LockSupport.unpark(loop);
        try {
            loop.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // While the database is down every submission fails, every two seconds: the first failure of a
    // minute is logged, in one line (the engine itself reports the outage), the rest are counted.
    private void submit() {
        try {
            burst();
            if (failing) {
                failing = false;
                LOG.info("Demo traffic submits again");
            }
        } catch (RuntimeException e) {
            failing = true;
            long now = System.nanoTime();
            if (lastWarning == 0 || now - lastWarning >= QUIET_FOR.toNanos()) {
                lastWarning = now;
                LOG.warning(() -> "Demo traffic could not submit (logged at most once a minute): " + oneLine(e));
            }
        }
    }

    private static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String what = root == e ? e.toString() : e.getClass().getName() + " caused by " + root;
        return what.replaceAll("\\s*\\R\\s*", " ");
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
