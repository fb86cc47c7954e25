package io.dispatchpolicy.infrastructure.wildfly;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Follows the server's suspend state: registers a {@link SuspendListener} with WildFly's suspend
 * controller, first in its order (suspended before every other activity, resumed after them), so the
 * engine stops admitting and lets its jobs finish before WildFly's batch subsystem stops what still runs
 * (ADR 0021). Without a suspend controller to register with (the engine's jar deployed without its
 * module dependencies), the engine ignores suspends, as it did before, and says so once.
 */
public final class ServerSuspend {

    private static final Logger LOG = Logger.getLogger(ServerSuspend.class.getName());

    private ServerSuspend() {
    }

    /** @return what unregisters the listener; a no-op when there is nothing to register with */
    public static AutoCloseable follow(SuspendListener listener) {
        try {
            return SuspendControllerActivity.register(listener);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while registering with the server's suspend controller", e);
        } catch (LinkageError | RuntimeException e) {
            LOG.log(Level.WARNING, "This node does not follow the server's suspend (" + e + "): it keeps admitting "
                    + "while the server is suspended. The engine's jar needs the modules org.jboss.as.server and "
                    + "org.jboss.msc (its manifest declares them)", e);
            return () -> { };
        }
    }
}
