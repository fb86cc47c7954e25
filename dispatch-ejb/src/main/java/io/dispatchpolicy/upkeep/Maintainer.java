package io.dispatchpolicy.upkeep;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Runs a node's maintenance tasks, each on its own interval, one at a time, in the order given — one
 * loop for all of them rather than a timer per task (River's maintainer, db-scheduler's housekeeping).
 * Plain Java with its clock passed in: {@code MaintainerTest} drives it without a server.
 *
 * <p>While {@code paused} says so (the database is unreachable) nothing runs; tasks that fell due
 * meanwhile run on the first pass after it. {@link #repairNow()} makes the tasks that ask for it due
 * at once. A task that throws is reported to {@code failed} and runs again at its next interval; the
 * others are not held up.
 */
public final class Maintainer {

    /** The longest a pass waits, so a stop or an outage's end is noticed within a second. */
    public static final long MAX_WAIT_MS = 1_000;

    private final List<MaintenanceTask> tasks;
    private final long[] next;
    private final LongSupplier clock;
    private final BooleanSupplier paused;
    private final BiConsumer<MaintenanceTask, RuntimeException> failed;
    private volatile boolean repairAsked;

    /**
     * @param tasks  in the order they run when several are due together
     * @param clock  milliseconds; boot is the time of this call
     * @param paused true while nothing may run
     * @param failed told of a task's exception
     */
    public Maintainer(List<MaintenanceTask> tasks, LongSupplier clock, BooleanSupplier paused,
                      BiConsumer<MaintenanceTask, RuntimeException> failed) {
        this.tasks = List.copyOf(tasks);
        this.clock = clock;
        this.paused = paused;
        this.failed = failed;
        this.next = new long[this.tasks.size()];
        long boot = clock.getAsLong();
        for (int i = 0; i < next.length; i++) {
            next[i] = boot + this.tasks.get(i).firstAfterMs();
        }
    }

    /** The node comes back (the database answers again, the server resumed): the repairing tasks are due at once. */
    public void repairNow() {
        repairAsked = true;
    }

    /**
     * Runs every task that is due, in order.
     *
     * @return the names of the tasks run, in order
     */
    public List<String> runDue() {
        long now = clock.getAsLong();
        if (repairAsked) {
            repairAsked = false;
            for (int i = 0; i < next.length; i++) {
                if (tasks.get(i).repairs()) {
                    next[i] = now;
                }
            }
        }
        List<String> ran = new ArrayList<>();
        if (paused.getAsBoolean()) {
            return ran;
        }
        for (int i = 0; i < next.length; i++) {
            if (now >= next[i]) {
                MaintenanceTask task = tasks.get(i);
                next[i] = now + task.intervalMs();
                try {
                    task.work().run();
                } catch (RuntimeException e) {
                    failed.accept(task, e);
                }
                ran.add(task.name());
            }
        }
        return ran;
    }

    /** Milliseconds until the next task is due, between 1 and {@link #MAX_WAIT_MS}. */
    public long waitMs() {
        long soonest = Long.MAX_VALUE;
        for (long t : next) {
            soonest = Math.min(soonest, t);
        }
        return Math.max(1, Math.min(soonest - clock.getAsLong(), MAX_WAIT_MS));
    }
}
