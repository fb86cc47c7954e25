package io.dispatchpolicy.interfaces.schedule;

import io.dispatchpolicy.application.TickRunner;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the tick every second on every node. The timer is not persistent: each node ticks on its own,
 * and {@code SKIP LOCKED} keeps nodes from admitting the same partition. A tick still running when the
 * next timeout fires makes that timeout return at once rather than queue up behind it.
 */
@Singleton
@Startup
@DependsOn("NodeLifecycle")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class TickTimer {

    private static final Logger LOG = Logger.getLogger(TickTimer.class.getName());

    private final AtomicBoolean running = new AtomicBoolean();

    @Inject
    TickRunner runner;

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false, info = "dispatch tick")
    void onTimeout() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        try {
            runner.tick();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Tick failed; the next one retries", e);
        } finally {
            running.set(false);
        }
    }
}
