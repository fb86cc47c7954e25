package io.dispatchpolicy.faults.check;

/**
 * One node's (one boot's) rows in {@code dispatch.inflight_jobs}: those whose runner has begun
 * ({@code started_at} set: the job is running on that server) and those admitted but not yet begun.
 */
public record NodeInflight(long started, long unstarted) {

    public static final NodeInflight NONE = new NodeInflight(0, 0);

    public boolean running() {
        return started > 0;
    }

    public long total() {
        return started + unstarted;
    }
}
