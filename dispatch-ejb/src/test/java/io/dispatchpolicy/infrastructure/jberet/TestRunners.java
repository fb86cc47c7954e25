package io.dispatchpolicy.infrastructure.jberet;

/** Drives {@link LocalRunners} as runners would, for engine-tier tests of what waits on them. */
public final class TestRunners {

    private TestRunners() {
    }

    /** A runner of {@code executionId} is held (admitted, queued) and, if {@code running}, passed its start mark. */
    public static void hold(LocalRunners runners, long executionId, boolean running) {
        runners.hold(executionId);
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
