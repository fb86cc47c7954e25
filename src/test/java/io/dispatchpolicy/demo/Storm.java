package io.dispatchpolicy.demo;

import io.dispatchpolicy.api.DispatchOperator;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;

/**
 * The playground's storm: {@code jobs} jobs of the {@code pg-storm} policy for {@code tenants} tenants,
 * submitted evenly over {@code duration} on a thread of its own, each tenant's share given by the weight
 * distribution — so the dashboard and the partition pages show the adaptive caps settle and fairness
 * reorder the tenants while it blows. One storm at a time; it can be called off, which stops submitting
 * (what was submitted stays, to be admitted or discarded like any job).
 */
@ApplicationScoped
public class Storm {

    public static final int MAX_TENANTS = 200;
    public static final int MAX_JOBS = 20_000;
    public static final Duration MAX_DURATION = Duration.ofMinutes(10);
    /** Jobs per submitAll: a short storm's steps are split, each call one transaction of its own. */
    private static final int CALL = 1000;
    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final Logger LOG = Logger.getLogger(Storm.class.getName());

    /** How the jobs are shared among the tenants. */
    public enum Distribution {
        /** Every tenant alike. */
        UNIFORM,
        /** Tenant k of n has weight k: the busiest sends n times what the quietest does. */
        TRIANGULAR,
        /** The first tenant sends half of all jobs; the others share the other half. */
        ONE_HEAVY;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        double[] weights(int tenants) {
            double[] w = new double[tenants];
            for (int k = 0; k < tenants; k++) {
                w[k] = switch (this) {
                    case UNIFORM -> 1;
                    case TRIANGULAR -> k + 1;
                    case ONE_HEAVY -> tenants == 1 ? 1 : k == 0 ? 0.5 : 0.5 / (tenants - 1);
                };
            }
            return w;
        }
    }

    /** A storm asked for; {@link #parse} checks every field. */
    public record Request(int tenants, int jobs, Duration duration, Distribution distribution) {

        /** Reads the form's fields; a missing or out-of-range one is refused naming the field. */
        public static Request parse(Map<String, String> form) {
            int tenants = number(form, "tenants", 1, MAX_TENANTS);
            int jobs = number(form, "jobs", 1, MAX_JOBS);
            int seconds = number(form, "duration", 1, (int) MAX_DURATION.toSeconds());
            String d = form.get("distribution");
            for (Distribution distribution : Distribution.values()) {
                if (distribution.id().equals(d)) {
                    return new Request(tenants, jobs, Duration.ofSeconds(seconds), distribution);
                }
            }
            throw new PlaygroundRefused("distribution", "distribution must be uniform, triangular or one-heavy, was '" + d + "'");
        }

        private static int number(Map<String, String> form, String field, int min, int max) {
            String value = form.get(field);
            try {
                int n = Integer.parseInt(value == null ? "" : value.strip());
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException notANumber) {
                // refused below, like a number out of range
            }
            throw new PlaygroundRefused(field, field + " must be a whole number from " + min + " to " + max + ", was '"
                    + (value == null ? "" : value) + "'");
        }
    }

    /** Where the current or last storm stands. */
    public record Status(Request request, Instant started, long submitted, boolean blowing, String failure) {
    }

    @Inject
    DispatchOperator dispatch;

    @Resource
    ManagedThreadFactory threads;

    private Status status;
    private Thread thread;
    private volatile boolean calledOff;

    /** Starts a storm; refused while another blows. */
    public synchronized Status start(Request request) {
        if (status != null && status.blowing()) {
            throw new PlaygroundRefused(null, "a storm is already blowing (" + status.submitted() + " of "
                    + status.request().jobs() + " submitted); call it off first");
        }
        status = new Status(request, Instant.now(), 0, true, null);
        calledOff = false;
        thread = threads.newThread(() -> blow(request));
        thread.setName("dispatch-playground-storm");
        thread.start();
        return status;
    }

    /** Stops submitting; what was submitted stays. */
    public synchronized Status callOff() {
        calledOff = true;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
        return status;
    }

    /** The current or last storm, or null when none blew since deployment. */
    public synchronized Status status() {
        return status;
    }

    private synchronized void progress(long submitted, boolean blowing, String failure) {
        status = new Status(status.request(), status.started(), submitted, blowing, failure);
    }

    @PreDestroy
    void undeployed() {
        Thread t;
        synchronized (this) {
            calledOff = true;
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // Submits in steps of 250 ms, each bringing the count up to the share of the duration elapsed, in calls of
    // at most 1,000 jobs (each one transaction): a storm of 20,000 jobs in 10 s is 80 calls of 250 jobs.
    private void blow(Request request) {
        double[] cumulative = cumulative(request.distribution().weights(request.tenants()));
        SplittableRandom random = new SplittableRandom();
        long start = System.nanoTime();
        long total = request.duration().toNanos();
        long submitted = 0;
        try {
            while (!calledOff && submitted < request.jobs()) {
                long elapsed = Math.min(System.nanoTime() - start, total);
                long due = Math.max(1, Math.round((double) request.jobs() * elapsed / total));
                List<Properties> step = new ArrayList<>();
                for (long i = submitted; i < Math.min(due, request.jobs()); i++) {
                    int k = tenant(cumulative, random.nextDouble());
                    step.add(Playground.parameters(String.format(Locale.ROOT, "storm-%03d", k + 1), 100 + random.nextInt(500)));
                }
                for (int from = 0; from < step.size() && !calledOff; from += CALL) {
                    List<Properties> call = step.subList(from, Math.min(step.size(), from + CALL));
                    dispatch.submitAll(Feature.STORM.job(), call);
                    submitted += call.size();
                    progress(submitted, true, null);
                }
                if (submitted < request.jobs()) {
                    LockSupport.parkNanos(STEP_NANOS);
                }
            }
            progress(submitted, false, null);
        } catch (RuntimeException e) {
            LOG.warning(() -> "The playground's storm stopped: " + e);
            progress(submitted, false, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private static double[] cumulative(double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double[] c = new double[weights.length];
        double run = 0;
        for (int k = 0; k < weights.length; k++) {
            run += weights[k] / sum;
            c[k] = run;
        }
        c[c.length - 1] = 1.0;
        return c;
    }

    private static int tenant(double[] cumulative, double u) {
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
