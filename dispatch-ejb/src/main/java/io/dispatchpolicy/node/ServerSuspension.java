package io.dispatchpolicy.node;

import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether this node admits: not while the server is suspending or suspended (jboss-cli {@code :suspend},
 * and the suspend that begins every {@code :shutdown} and {@code :reload}), nor while it boots (WildFly
 * resumes a server once its boot is complete). Every path that creates an execution or starts an admitted
 * one runs through {@link #whileAdmitting}: the tick's iterations, an operator's force-admit, recovery's
 * start of admitted executions whose runner never ran. {@link #hold} then waits for the ones in progress,
 * so once it returns nothing more is admitted until {@link #release}: that is what makes "no execution
 * created while suspended" exact rather than "within a tick". Staging goes on — submissions, retries and
 * schedule occurrences are only rows — and is admitted after the resume (ADR 0021).
 */
@ApplicationScoped
public class ServerSuspension {

    private final Object lock = new Object();
    private boolean held;
    private int inProgress;

    /** Runs {@code admission} unless admissions are held; empty (nothing run) while they are. */
    public <T> Optional<T> whileAdmitting(Supplier<T> admission) {
        synchronized (lock) {
            if (held) {
                return Optional.empty();
            }
            inProgress++;
        }
        try {
            return Optional.of(admission.get());
        } finally {
            synchronized (lock) {
                if (--inProgress == 0) {
                    lock.notifyAll();
                }
            }
        }
    }

    /** True while admissions are held (the server suspending, suspended or booting). */
    public boolean held() {
        synchronized (lock) {
            return held;
        }
    }

    /**
     * Holds admissions, then waits for the ones in progress to end (each is one transaction: a tick's
     * iteration, a force-admit).
     *
     * @return false if some were still in progress after {@code wait}
     */
    public boolean hold(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (lock) {
            held = true;
            try {
                while (inProgress > 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    lock.wait(left / 1_000_000, (int) (left % 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return inProgress == 0;
            }
            return true;
        }
    }

    /** Admits again. */
    public void release() {
        synchronized (lock) {
            held = false;
        }
    }

}
