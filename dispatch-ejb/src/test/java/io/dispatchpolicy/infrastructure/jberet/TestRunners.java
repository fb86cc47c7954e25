package io.dispatchpolicy.infrastructure.jberet;

/** Drives {@link LocalRunners} as runners would, for engine-tier tests of what waits on them. */
public final class TestRunners {

    private TestRunners() {
    }

    /** A runner of {@code executionId} is held (admitted, queued) and, if {@code running}, passed its start mark. */
    public static void hold(LocalRunners runners, long executionId, boolean running) {
        hold(runners, executionId, running, 1);
    }

    /** As {@link #hold(LocalRunners, long, boolean)}, for a job that takes {@code threads} batch threads (its cost). */
    public static void hold(LocalRunners runners, long executionId, boolean running, int threads) {
        runners.hold(executionId, threads);
        if (running) {
            runners.running(executionId, new LocalRunners.RunningJob() {
                @Override
                public boolean interruptJob() {
                    return false;
                }

                @Override
                public long chunkStepRunningMs() {
                    return -1;
                }
            });
        }
    }

    /** The runner let go (its job ended, or it never started). */
    public static void release(LocalRunners runners, long executionId) {
        runners.release(executionId);
    }
}
