package io.dispatchpolicy.infrastructure.wildfly;

import org.jboss.as.server.CurrentServiceContainer;
import org.jboss.as.server.suspend.ServerResumeContext;
import org.jboss.as.server.suspend.ServerSuspendContext;
import org.jboss.as.server.suspend.SuspendableActivity;
import org.jboss.as.server.suspend.SuspendableActivityRegistry;
import org.jboss.msc.Service;
import org.jboss.msc.service.ServiceBuilder;
import org.jboss.msc.service.ServiceController;
import org.jboss.msc.service.ServiceName;
import org.jboss.msc.service.StartContext;
import org.jboss.msc.service.StopContext;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The only class that names WildFly's suspend API (WildFly Core 31: {@code SuspendableActivityRegistry},
 * installed under the capability {@code org.wildfly.server.suspend-controller}), so that its absence
 * is one {@link LinkageError} {@link ServerSuspend} can catch.
 */
final class SuspendControllerActivity implements SuspendableActivity {

    /** The capability's service name, as WildFly Core 31's ServerService installs the suspend controller. */
    private static final ServiceName SUSPEND_CONTROLLER = ServiceName.parse("org.wildfly.server.suspend-controller");

    /**
     * WildFly's batch configuration (batch-jberet in WildFly 39), which requires the default job repository and
     * batch thread pool: a service that requires it stops before they do.
     */
    private static final ServiceName BATCH_CONFIGURATION = ServiceName.parse("org.wildfly.batch.configuration");

    private static final Logger LOG = Logger.getLogger(SuspendControllerActivity.class.getName());

    private final SuspendListener listener;

    private SuspendControllerActivity(SuspendListener listener) {
        this.listener = listener;
    }

    /**
     * The controller's value is handed only to services that require it (MSC 1.5 answers {@code getValue()}
     * with UnsupportedOperationException), so a small service of the server's container, requiring it,
     * registers the activity when it starts and unregisters it when it stops. It also requires WildFly's
     * batch configuration, so that when the server stops (a {@code :shutdown} without a suspend timeout,
     * SIGTERM: the services stop at once) the job repository and the batch threads stay up until this node's
     * jobs have ended — else a job still ending finds the repository stopped and fails with an ERROR.
     */
    static AutoCloseable register(SuspendListener listener) throws InterruptedException {
        SuspendControllerActivity activity = new SuspendControllerActivity(listener);
        ServiceBuilder<?> builder = CurrentServiceContainer.getServiceContainer().addService();
        Supplier<SuspendableActivityRegistry> registry = builder.requires(SUSPEND_CONTROLLER);
        if (CurrentServiceContainer.getServiceContainer().getService(BATCH_CONFIGURATION) != null) {
            builder.requires(BATCH_CONFIGURATION);
        }
        CountDownLatch registered = new CountDownLatch(1);
        builder.setInstance(new Service() {
            @Override
            public void start(StartContext context) {
                // FIRST: suspended before the other activities (WildFly's batch subsystem stops every running
                // job in its own suspend), resumed after them. Registered while the server is suspended (at
                // boot, before it resumes), the registry calls suspend() at once and waits for it.
                registry.get().registerActivity(activity, SuspendableActivityRegistry.SuspendPriority.FIRST);
                registered.countDown();
            }

            @Override
            public void stop(StopContext context) {
                registry.get().unregisterActivity(activity);
                context.asynchronous();
                guarded("stop", listener::stopping).whenComplete((done, e) -> context.complete());
            }
        });
        ServiceController<?> controller = builder.install();
        if (!registered.await(30, TimeUnit.SECONDS)) {
            controller.setMode(ServiceController.Mode.REMOVE);
            throw new IllegalStateException("the suspend controller did not take the registration within 30 s");
        }
        return () -> controller.setMode(ServiceController.Mode.REMOVE);
    }

    // The server's suspend and resume, and its boot, must never fail because of the engine: what the listener
    // throws is logged and the stage completes.

    @Override
    public CompletionStage<Void> prepare(ServerSuspendContext context) {
        return guarded("prepare", listener::prepare);
    }

    @Override
    public CompletionStage<Void> suspend(ServerSuspendContext context) {
        return guarded("suspend", () -> listener.suspend(context.isStopping()));
    }

    @Override
    public CompletionStage<Void> resume(ServerResumeContext context) {
        return guarded("resume", () -> {
            listener.resume();
            return COMPLETED;
        });
    }

    private static CompletionStage<Void> guarded(String phase, Supplier<CompletionStage<Void>> step) {
        try {
            return step.get().exceptionally(e -> {
                if (!(e instanceof CancellationException || e.getCause() instanceof CancellationException)) {
                    LOG.log(Level.WARNING, e, () -> "The engine's " + phase + " failed; the server goes on");
                }
                return null; // cancelled: the server resumed during the suspend
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "The engine's " + phase + " failed; the server goes on");
            return COMPLETED;
        }
    }
}
