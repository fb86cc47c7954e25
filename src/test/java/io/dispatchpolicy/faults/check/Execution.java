package io.dispatchpolicy.faults.check;

import java.time.Instant;
import java.util.Set;

/**
 * One JBeret execution of the fault job, with the two job parameters the checks need: the submission
 * id the engine stamps on every admitted execution, and the tenant (the partition).
 *
 * <p>What JBeret writes: {@code starttime} when the runner begins, {@code endtime} when it ends. An
 * execution recovery marked FAILED after its node died gets {@code endtime} = the moment of recovery
 * (JBeret's {@code setBatchStatus(FAILED)} stamps it), so its interval spans the outage: the time its
 * slot stayed taken, which is what the concurrency cap counts. An execution the database never heard
 * end (still STARTING/STARTED/STOPPING) is open until the check.
 */
public record Execution(long id, long instanceId, Long submissionId, String tenant, String status, String exitStatus,
                        Instant created, Instant started, Instant ended, Instant lastUpdated) {

    private static final Set<String> UNFINISHED = Set.of("STARTING", "STARTED", "STOPPING");

    public boolean completed() {
        return "COMPLETED".equals(status);
    }

    public boolean unfinished() {
        return UNFINISHED.contains(status);
    }

    /** True when its runner began (an execution recovered before its runner ever started has none). */
    public boolean ran() {
        return started != null;
    }

    /** When it stopped holding its place: see the class comment. */
    public Instant runEnd(Instant now) {
        if (ended != null) {
            return ended;
        }
        return unfinished() ? now : lastUpdated;
    }

    @Override
    public String toString() {
        return "execution " + id + " (instance " + instanceId + ", " + status
                + (exitStatus == null || exitStatus.equals(status) ? "" : " '" + exitStatus + "'")
                + ", " + started + " .. " + ended + ")";
    }
}
