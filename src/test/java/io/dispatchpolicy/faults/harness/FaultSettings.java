package io.dispatchpolicy.faults.harness;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The suite's knobs, as system properties (failsafe sets them; {@code -Dfault.jobs=3000} on the
 * command line overrides):
 *
 * <table>
 * <tr><th>property</th><th>default</th><th>meaning</th></tr>
 * <tr><td>fault.jobs</td><td>2000</td><td>jobs in the storm</td></tr>
 * <tr><td>fault.tenants</td><td>20</td><td>partitions they spread over</td></tr>
 * <tr><td>fault.sleepMs</td><td>50-200</td><td>what each job sleeps (N or MIN-MAX)</td></tr>
 * <tr><td>fault.at</td><td>0.33</td><td>share of the storm admitted when the fault strikes</td></tr>
 * <tr><td>fault.pg.outage</td><td>15</td><td>seconds PostgreSQL stays down</td></tr>
 * <tr><td>fault.pg.drain</td><td>120</td><td>seconds after PostgreSQL's return to drain in</td></tr>
 * <tr><td>fault.drain</td><td>240</td><td>seconds after a WildFly restart to drain in</td></tr>
 * <tr><td>fault.boot</td><td>300</td><td>seconds WildFly may take to deploy</td></tr>
 * <tr><td>fault.port-offset</td><td>300</td><td>WildFly's port offset (HTTP 8380, management 10290); a scenario's
 *     further servers run 100, 200, … above it ({@link ServerSpec})</td></tr>
 * <tr><td>fault.dir</td><td>target/faults</td><td>output: one directory per scenario, results.json/.md</td></tr>
 * </table>
 *
 * <p>A scenario whose fault needs a storm of another shape has properties of its own, read by
 * {@link #withStormOf}: {@code fault.two.jobs} and {@code fault.two.sleepMs} for scenario (d).
 */
public record FaultSettings(int jobs, int tenants, String sleepMs, double faultAt, Duration pgOutage,
                            Duration pgDrain, Duration drain, Duration boot, int portOffset, Path outputDir,
                            Path jbossHome, Path ear) {

    public static FaultSettings fromSystemProperties() {
        return new FaultSettings(
                Integer.getInteger("fault.jobs", 2000),
                Integer.getInteger("fault.tenants", 20),
                System.getProperty("fault.sleepMs", "50-200"),
                Double.parseDouble(System.getProperty("fault.at", "0.33")),
                Duration.ofSeconds(Long.getLong("fault.pg.outage", 15)),
                Duration.ofSeconds(Long.getLong("fault.pg.drain", 120)),
                Duration.ofSeconds(Long.getLong("fault.drain", 240)),
                Duration.ofSeconds(Long.getLong("fault.boot", 300)),
                Integer.getInteger("fault.port-offset", 300),
                Path.of(System.getProperty("fault.dir", "target/faults")).toAbsolutePath(),
                Path.of(required("jboss.home")),
                Path.of(required("dispatch.ear")));
    }

    /**
     * These settings with a scenario's own storm: {@code <prefix>.jobs} jobs sleeping
     * {@code <prefix>.sleepMs}, the given defaults when unset. The suite's {@code fault.jobs} and
     * {@code fault.sleepMs} do not apply to such a scenario: they are sized for the others.
     */
    public FaultSettings withStormOf(String prefix, int defaultJobs, String defaultSleepMs) {
        return new FaultSettings(Integer.getInteger(prefix + ".jobs", defaultJobs), tenants,
                System.getProperty(prefix + ".sleepMs", defaultSleepMs), faultAt, pgOutage, pgDrain, drain, boot,
                portOffset, outputDir, jbossHome, ear);
    }

    /** How many admissions mark the moment the fault strikes. */
    public long faultAfterAdmitted() {
        return Math.max(1, Math.round(jobs * faultAt));
    }

    public int httpPort() {
        return 8080 + portOffset;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("System property " + property + " is not set; run through ./mvnw -Pfaults verify");
        }
        return value;
    }
}
