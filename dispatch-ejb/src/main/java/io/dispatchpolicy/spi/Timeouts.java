package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How long a policy's jobs may run (ADR 0030): a maximum run time from the execution's start, and for
 * chunk steps a maximum time without a checkpoint (the progress timeout), each for every job of the
 * policy and, overriding that, for one job name. Both are measured on the database's clock. An execution
 * past either is stopped, recorded FAILED with the reason, and its slot is freed at once; the policy's
 * retries then apply. A submission's own {@code SubmitOption.timeout} / {@code progressTimeout} wins over
 * these. Immutable: each method returns a new value.
 */
public final class Timeouts {

    /** The longest timeout accepted: ten years, the furthest a submission can look ahead. */
    public static final Duration LONGEST = Duration.ofDays(3653);

    private static final Timeouts NONE = new Timeouts(null, null, Map.of(), Map.of());

    private final Duration run;
    private final Duration progress;
    /** A job's own timeout; empty: none for that job, whatever the policy-wide one says. */
    private final Map<String, Optional<Duration>> runByJob;
    private final Map<String, Optional<Duration>> progressByJob;

    private Timeouts(Duration run, Duration progress, Map<String, Optional<Duration>> runByJob,
                     Map<String, Optional<Duration>> progressByJob) {
        this.run = run;
        this.progress = progress;
        this.runByJob = Map.copyOf(runByJob);
        this.progressByJob = Map.copyOf(progressByJob);
    }

    /** No timeout: jobs run as long as they run (the default). */
    public static Timeouts none() {
        return NONE;
    }

    /** Every job of the policy runs at most {@code max}; null for none. */
    public Timeouts run(Duration max) {
        return new Timeouts(check("timeout", max), progress, runByJob, progressByJob);
    }

    /** Jobs named {@code jobName} run at most {@code max} (null: none, whatever the policy-wide one says). */
    public Timeouts run(String jobName, Duration max) {
        Map<String, Optional<Duration>> byJob = new HashMap<>(runByJob);
        byJob.put(job(jobName), Optional.ofNullable(check("timeout of job '" + jobName + "'", max)));
        return new Timeouts(run, progress, byJob, progressByJob);
    }

    /** A chunk step of any of the policy's jobs goes at most {@code max} without a checkpoint; null for none. */
    public Timeouts progress(Duration max) {
        return new Timeouts(run, check("progress timeout", max), runByJob, progressByJob);
    }

    /** A chunk step of a job named {@code jobName} goes at most {@code max} without a checkpoint (null: none). */
    public Timeouts progress(String jobName, Duration max) {
        Map<String, Optional<Duration>> byJob = new HashMap<>(progressByJob);
        byJob.put(job(jobName), Optional.ofNullable(check("progress timeout of job '" + jobName + "'", max)));
        return new Timeouts(run, progress, runByJob, byJob);
    }

    /** The run timeout of a job of this name: its own, else the policy-wide one. */
    public Optional<Duration> runFor(String jobName) {
        return runByJob.getOrDefault(jobName, Optional.ofNullable(run));
    }

    /** The progress timeout of a job of this name: its own, else the policy-wide one. */
    public Optional<Duration> progressFor(String jobName) {
        return progressByJob.getOrDefault(jobName, Optional.ofNullable(progress));
    }

    /** The job names this declares a timeout of their own for (run or progress). */
    public java.util.Set<String> jobNames() {
        java.util.Set<String> names = new java.util.TreeSet<>(runByJob.keySet());
        names.addAll(progressByJob.keySet());
        return names;
    }

    /** True when no job of the policy has a timeout of any kind. */
    public boolean isNone() {
        return run == null && progress == null && runByJob.values().stream().allMatch(Optional::isEmpty)
                && progressByJob.values().stream().allMatch(Optional::isEmpty);
    }

    private static String job(String jobName) {
        if (jobName == null || jobName.isBlank()) {
            throw new PolicyDeclarationException("A timeout names a null or blank job");
        }
        return Policy.jobName(jobName.strip());
    }

    /**
     * A timeout must be positive and at most {@link #LONGEST}: a timeout of zero would stop every job at
     * its start. Null is "none".
     */
    public static Duration check(String what, Duration max) {
        if (max != null && (max.isZero() || max.isNegative() || max.compareTo(LONGEST) > 0)) {
            throw new PolicyDeclarationException("A " + what + " must be more than 0 and at most " + LONGEST.toDays()
                    + " days, was " + max);
        }
        return max;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Timeouts t && java.util.Objects.equals(run, t.run) && java.util.Objects.equals(progress, t.progress)
                && runByJob.equals(t.runByJob) && progressByJob.equals(t.progressByJob);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(run, progress, runByJob, progressByJob);
    }

    @Override
    public String toString() {
        return "Timeouts[run " + run + " " + runByJob + ", progress " + progress + " " + progressByJob + "]";
    }
}
