package io.dispatchpolicy.domain.model;

import java.time.Duration;
import java.util.Optional;

/**
 * A job's timeouts in milliseconds (ADR 0030): how long its execution may run from its start, and how long
 * a chunk step of it may go without a checkpoint; null where none is set.
 */
public record JobTimeouts(Long runMs, Long progressMs) {

    public static final JobTimeouts NONE = new JobTimeouts(null, null);

    public static JobTimeouts of(Optional<Duration> run, Optional<Duration> progress) {
        return new JobTimeouts(run.map(Duration::toMillis).orElse(null), progress.map(Duration::toMillis).orElse(null));
    }

    /** These, where set, else {@code fallback}'s: a submission's own timeouts over its policy's. */
    public JobTimeouts or(JobTimeouts fallback) {
        return new JobTimeouts(runMs != null ? runMs : fallback.runMs, progressMs != null ? progressMs : fallback.progressMs);
    }

    public boolean isNone() {
        return runMs == null && progressMs == null;
    }

    /** These as a page shows them: "run 3 s · no checkpoint 2 s"; "none" when neither is set. */
    public String describe() {
        if (isNone()) {
            return "none";
        }
        StringBuilder text = new StringBuilder();
        if (runMs != null) {
            text.append("run ").append(describe(runMs));
        }
        if (progressMs != null) {
            text.append(text.isEmpty() ? "" : " · ").append("no checkpoint ").append(describe(progressMs));
        }
        return text.toString();
    }

    /** A timeout as a person says it: "5 s", "2 min 30 s", "1 h", "250 ms". */
    public static String describe(Long millis) {
        if (millis == null) {
            return "?";
        }
        if (millis < 1_000) {
            return millis + " ms";
        }
        Duration d = Duration.ofMillis(millis);
        StringBuilder text = new StringBuilder();
        if (d.toDays() > 0) {
            text.append(d.toDays()).append(" d ");
        }
        if (d.toHoursPart() > 0) {
            text.append(d.toHoursPart()).append(" h ");
        }
        if (d.toMinutesPart() > 0) {
            text.append(d.toMinutesPart()).append(" min ");
        }
        if (d.toSecondsPart() > 0 || d.toMillisPart() > 0) {
            text.append(d.toMillisPart() > 0
                    ? String.format(java.util.Locale.ROOT, "%.3f", d.toSecondsPart() + d.toMillisPart() / 1000.0)
                    : String.valueOf(d.toSecondsPart())).append(" s ");
        }
        return text.toString().strip();
    }
}
