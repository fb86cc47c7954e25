package io.dispatchpolicy.interfaces.engine;

import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InitialContext;
import javax.naming.NameClassPair;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;

/**
 * Finds the engine's services by their EJB names. In an EAR the engine's beans are visible to CDI, but
 * beside a user's WAR they are not (CDI does not cross deployments), while EJB names do: so the console
 * always goes through JNDI, first in its own application ({@code java:app}), then in the server
 * ({@code java:global}). Only a bean whose interface is the very class the console was compiled
 * against matches, which is the engine the console shares classes with; its proxy is kept.
 */
@ApplicationScoped
public class EngineServices {

    /** How deep below {@code java:app}/{@code java:global} an EJB binding can be: application/module/bean. */
    private static final int DEPTH = 3;

    private final Map<Class<?>, Object> found = new ConcurrentHashMap<>();

    @Produces
    @Engine
    Monitoring monitoring() {
        return find(Monitoring.class);
    }

    @Produces
    @Engine
    PolicyControl policyControl() {
        return find(PolicyControl.class);
    }

    @Produces
    @Engine
    PartitionControl partitionControl() {
        return find(PartitionControl.class);
    }

    @Produces
    @Engine
    DeadJobControl deadJobControl() {
        return find(DeadJobControl.class);
    }

    @Produces
    @Engine
    ScheduleControl scheduleControl() {
        return find(ScheduleControl.class);
    }

    @Produces
    @Engine
    io.dispatchpolicy.console.audit.AuditLog auditLog() {
        return find(io.dispatchpolicy.console.audit.AuditLog.class);
    }

    @Produces
    @Engine
    JobControl jobControl() {
        return find(JobControl.class);
    }

    <T> T find(Class<T> type) {
        return type.cast(found.computeIfAbsent(type, this::lookUp));
    }

    private Object lookUp(Class<?> type) {
        try {
            InitialContext context = new InitialContext();
            try {
                for (String root : new String[] {"java:app", "java:global"}) {
                    Optional<Object> bean = search(context, root, "!" + type.getName(), type, DEPTH);
                    if (bean.isPresent()) {
                        return bean.get();
                    }
                }
            } finally {
                context.close();
            }
        } catch (NamingException e) {
            throw new IllegalStateException("Could not search JNDI for the engine's " + type.getSimpleName() + ": " + e, e);
        }
        throw new IllegalStateException("The Dispatch Policy engine is not reachable from the console: no EJB implementing "
                + type.getName() + " in this application or in a deployment the console shares classes with. Deploy the "
                + "console in the EAR that holds the engine, or the console's standalone WAR beside a WAR that holds the "
                + "engine and declares the module alias deployment.dispatch-engine (README: \"Use it in your application\").");
    }

    private static Optional<Object> search(InitialContext context, String name, String suffix, Class<?> type, int depth)
            throws NamingException {
        NamingEnumeration<NameClassPair> children;
        try {
            children = context.list(name);
        } catch (NamingException notAContext) {
            return Optional.empty();
        }
        try {
            while (children.hasMore()) {
                String child = name + "/" + children.next().getName();
                if (child.endsWith(suffix)) {
                    Object bean = lookUpQuietly(context, child);
                    if (type.isInstance(bean)) {
                        return Optional.of(bean);
                    }
                } else if (depth > 1 && !child.contains("!")) {
                    Optional<Object> below = search(context, child, suffix, type, depth - 1);
                    if (below.isPresent()) {
                        return below;
                    }
                }
            }
        } finally {
            children.close();
        }
        return Optional.empty();
    }

    private static Object lookUpQuietly(InitialContext context, String name) {
        try {
            return context.lookup(name);
        } catch (NamingException | RuntimeException notOurs) {
            // another application's bean whose interface our class loader cannot see
            return null;
        }
    }
}
