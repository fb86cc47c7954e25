package io.dispatchpolicy.interfaces.engine;

import io.dispatchpolicy.console.EngineBeacon;
import io.dispatchpolicy.console.PartitionControl;
import io.dispatchpolicy.console.PolicyControl;
import io.dispatchpolicy.console.audit.AuditLog;
import io.dispatchpolicy.console.jobs.JobControl;
import io.dispatchpolicy.console.monitoring.DeadJobControl;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.console.schedule.ScheduleControl;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.CDI;

import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NameClassPair;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;

/**
 * The console's one way to the engine, whatever state the engine's deployment is in (ADR 0026). Views
 * and resources inject the engine's services with {@link Engine}; each call goes through this guard:
 * <ul>
 * <li><b>Find</b> the services by their EJB names, in the console's own application ({@code java:app}, the
 * EAR) or else in the server ({@code java:global}, a user's WAR beside the standalone console). Beside a
 * WAR the engine's classes are another class loader's: the console holds its own copy of the contract
 * and calls {@link ByValue}, so nothing ties the two deployments and the user's WAR can fail, stop and
 * come back while the console stays up.</li>
 * <li><b>Prove</b> a newly found engine answers before any request relies on it. WildFly holds a call
 * into a deployment that is still starting until all its startup beans are up — forever, if one fails,
 * and the held call then keeps the deployment from being removed. So the console first reads the
 * engine's {@link EngineBeacon} (raised at the end of its start, no call), then makes one call without
 * the database ({@code nodeStatus}) on another thread, bounded by {@link #PROBE_BOUND} and interrupted
 * when it overruns; a request never makes that first call itself.</li>
 * <li><b>Remember</b> an unavailable engine for {@link #DOWN_FOR}: meanwhile every call fails at once with
 * {@link EngineUnavailableException} (503 and a banner), so a broken engine costs one lookup a second.
 * A call that finds the engine's deployment stopped or gone forgets it; the next one finds it again.</li>
 * </ul>
 */
@ApplicationScoped
public class EngineServices {

    private static final Logger LOG = Logger.getLogger(EngineServices.class.getName());

    /** The console's contract: each service the engine exposes to it. */
    static final List<Class<?>> SERVICES = List.of(Monitoring.class, PolicyControl.class, PartitionControl.class,
            DeadJobControl.class, ScheduleControl.class, AuditLog.class, JobControl.class,
            io.dispatchpolicy.console.bulk.BulkActionControl.class);
    /** How long a newly found engine may take to answer its first call (within the console's second). */
    static final Duration PROBE_BOUND = Duration.ofMillis(700);
    /** How long an unavailable engine is answered from memory before it is looked for again. */
    static final Duration DOWN_FOR = Duration.ofSeconds(1);
    /** How deep below {@code java:app}/{@code java:global} an EJB binding can be: application/module/bean. */
    private static final int DEPTH = 3;
    /** What WildFly throws for a call to a component that stopped, or whose deployment went away. */
    private static final Set<String> GONE = Set.of("NoSuchEJBException", "EJBComponentUnavailableException",
            "ComponentIsStoppedException");

    @Resource
    ManagedExecutorService executor;

    private final Map<Class<?>, Object> guarded = new ConcurrentHashMap<>();
    /** The engine found and proven to answer; null until then, and again once it is gone. */
    private volatile Link link;
    /** Why the engine was last found unavailable, answered from memory until {@code retryAt}. */
    private volatile Down down;

    /** An engine deployment's services, as the console's types. */
    /**
     * @param binding     the JNDI name its Monitoring was found at
     * @param incarnation the class loader of that deployment's contract: another one at the same name is a
     *                    new deployment
     */
    record Link(String where, Map<Class<?>, Object> services, String binding, ClassLoader incarnation) {
    }

    private record Down(String reason, Instant since, long retryAtNanos) {
        EngineUnavailableException exception() {
            return new EngineUnavailableException(reason, since);
        }
    }

    @Produces
    @Engine
    Monitoring monitoring() {
        return guarded(Monitoring.class);
    }

    @Produces
    @Engine
    PolicyControl policyControl() {
        return guarded(PolicyControl.class);
    }

    @Produces
    @Engine
    PartitionControl partitionControl() {
        return guarded(PartitionControl.class);
    }

    @Produces
    @Engine
    DeadJobControl deadJobControl() {
        return guarded(DeadJobControl.class);
    }

    @Produces
    @Engine
    ScheduleControl scheduleControl() {
        return guarded(ScheduleControl.class);
    }

    @Produces
    @Engine
    AuditLog auditLog() {
        return guarded(AuditLog.class);
    }

    @Produces
    @Engine
    JobControl jobControl() {
        return guarded(JobControl.class);
    }

    @Produces
    @Engine
    io.dispatchpolicy.console.bulk.BulkActionControl bulkActionControl() {
        return guarded(io.dispatchpolicy.console.bulk.BulkActionControl.class);
    }

    /**
     * Returns at once when the engine is known to answer; otherwise finds and probes it, within
     * {@link #PROBE_BOUND}. Pages ask this before they render (a banner instead of a page).
     *
     * @throws EngineUnavailableException with the reason, when it does not answer
     */
    public void requireAvailable() {
        available();
    }

    <T> T guarded(Class<T> type) {
        return type.cast(guarded.computeIfAbsent(type, t -> Proxy.newProxyInstance(t.getClassLoader(), new Class<?>[] {t},
                new Guard(t, this))));
    }

    /**
     * What a view holds: serializable like the EJB proxies it replaces (view-scoped beans may be), finding
     * the application's guard again after being read back.
     */
    private static final class Guard implements InvocationHandler, Serializable {
        private static final long serialVersionUID = 1L;
        private final Class<?> type;
        private transient EngineServices services;

        Guard(Class<?> type, EngineServices services) {
            this.type = type;
            this.services = services;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "engine " + type.getSimpleName() + " (guarded)";
                };
            }
            if (services == null) {
                services = CDI.current().select(EngineServices.class).get();
            }
            return services.call(type, method, args);
        }
    }

    private Object call(Class<?> type, Method method, Object[] args) throws Throwable {
        Link current = available();
        try {
            return method.invoke(current.services().get(type), args);
        } catch (InvocationTargetException e) {
            Throwable failure = e.getCause() instanceof UndeclaredThrowableException u ? u.getCause() : e.getCause();
            if (gone(failure)) {
                throw forget(current, "The engine's deployment (" + current.where() + ") stopped: " + failure.getMessage());
            }
            throw failure;
        }
    }

    private Link available() {
        Link current = link;
        if (current != null) {
            return current;
        }
        Down last = down;
        if (last != null && System.nanoTime() < last.retryAtNanos()) {
            throw last.exception();
        }
        synchronized (this) {
            current = link;
            if (current != null) {
                return current;
            }
            last = down;
            if (last != null && System.nanoTime() < last.retryAtNanos()) {
                throw last.exception();
            }
            try {
                Link found = findAndProbe();
                Down before = last;
                LOG.info(() -> "The console reaches the engine of " + found.where()
                        + (before == null ? "" : ", unavailable since " + before.since()));
                link = found;
                down = null;
                return found;
            } catch (EngineUnavailableException unavailable) {
                Down now = new Down(unavailable.getMessage(), last == null ? Instant.now() : last.since(),
                        System.nanoTime() + DOWN_FOR.toNanos());
                if (last == null || !last.reason().equals(now.reason())) {
                    LOG.warning(now.reason());
                }
                down = now;
                throw now.exception();
            }
        }
    }

    private synchronized EngineUnavailableException forget(Link gone, String reason) {
        if (link == gone) {
            link = null;
            down = new Down(reason, Instant.now(), System.nanoTime() + DOWN_FOR.toNanos());
            LOG.warning(reason);
        }
        return down == null ? new EngineUnavailableException(reason, Instant.now()) : down.exception();
    }

    /**
     * Finds the engine (JNDI only), then, once it says it has started ({@link EngineBeacon}), makes its first
     * call on another thread and waits for it up to {@link #PROBE_BOUND}; a call that overruns is
     * interrupted, which frees it from the deployment's startup wait (a wait that would otherwise keep the
     * deployment from being removed). That happens only when the engine has started but another startup
     * bean of its deployment has not (or failed); WildFly then logs the interrupted call as failed.
     */
    private Link findAndProbe() {
        Link found = find();
        if (!EngineBeacon.raised(found.incarnation())) {
            throw new EngineUnavailableException("The engine's deployment (" + found.where() + ") has not started: it is "
                    + "starting, or its start failed", Instant.now());
        }
        Future<?> answer = executor.submit(((Monitoring) found.services().get(Monitoring.class))::nodeStatus);
        try {
            answer.get(PROBE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return found;
        } catch (TimeoutException starting) {
            answer.cancel(true);
            throw new EngineUnavailableException("The engine's deployment (" + found.where() + ") does not answer within "
                    + PROBE_BOUND.toMillis() + " ms: a startup bean of that deployment has not completed, or failed",
                    Instant.now());
        } catch (ExecutionException e) {
            throw new EngineUnavailableException("The engine's deployment (" + found.where() + ") cannot answer: "
                    + e.getCause(), Instant.now());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnavailableException("Interrupted while waiting for the engine", Instant.now());
        }
    }

    private static boolean gone(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (GONE.contains(t.getClass().getSimpleName()) || GONE.stream().anyMatch(message::contains)) {
                return true;
            }
        }
        return false;
    }

    /** Every service of one engine deployment: the console's own application first, else the server's. */
    private static Link find() {
        try {
            InitialContext context = new InitialContext();
            try {
                for (String root : new String[] {"java:app", "java:global"}) {
                    List<String> bindings = new ArrayList<>();
                    list(context, root, "!" + Monitoring.class.getName(), DEPTH, bindings);
                    for (String binding : bindings) {
                        String where = binding.substring(0, binding.indexOf('/', root.length() + 1) < 0
                                ? binding.length() : binding.indexOf('/', root.length() + 1));
                        Map<Class<?>, Object> services = new HashMap<>();
                        ClassLoader incarnation = contractLoader(lookUpQuietly(context, binding), Monitoring.class);
                        for (Class<?> type : SERVICES) {
                            List<String> named = new ArrayList<>();
                            list(context, where, "!" + type.getName(), DEPTH, named);
                            for (String name : named) {
                                Object service = asConsoleType(lookUpQuietly(context, name), type);
                                if (service != null) {
                                    services.put(type, service);
                                    break;
                                }
                            }
                        }
                        if (services.size() == SERVICES.size() && incarnation != null) {
                            return new Link(where, Map.copyOf(services), binding, incarnation);
                        }
                    }
                }
            } finally {
                context.close();
            }
        } catch (NamingException e) {
            throw new EngineUnavailableException("Could not search JNDI for the engine: " + e, Instant.now());
        }
        throw new EngineUnavailableException("The Dispatch Policy engine is not deployed: no application of this server "
                + "exposes its services (" + Monitoring.class.getName() + "). Deploy the EAR that holds engine and console, "
                + "or the application that holds the engine beside the console's standalone WAR (the guide: \"Getting "
                + "started\").", Instant.now());
    }

    /** The class loader of {@code bean}'s copy of {@code type}; null when it has none. */
    private static ClassLoader contractLoader(Object bean, Class<?> type) {
        Class<?> view = ByValue.view(bean, type);
        return view == null ? null : view.getClassLoader();
    }

    /** The engine's EJB as the console's type: itself in an EAR, a by-value bridge across class loaders. */
    private static Object asConsoleType(Object bean, Class<?> type) {
        if (bean == null || type.isInstance(bean)) {
            return bean;
        }
        Class<?> view = ByValue.view(bean, type);
        return view == null ? null : Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new ByValue(bean, view, type.getClassLoader()));
    }

    /** Bindings below {@code name} ending in {@code suffix}, in name order (so the choice is stable). */
    private static void list(InitialContext context, String name, String suffix, int depth, List<String> into)
            throws NamingException {
        NamingEnumeration<NameClassPair> children;
        try {
            children = context.list(name);
        } catch (NamingException notAContext) {
            return;
        }
        List<String> names = new ArrayList<>();
        try {
            while (children.hasMore()) {
                names.add(name + "/" + children.next().getName());
            }
        } finally {
            children.close();
        }
        names.sort(null);
        for (String child : names) {
            if (child.endsWith(suffix)) {
                into.add(child);
            } else if (depth > 1 && !child.contains("!")) {
                list(context, child, suffix, depth - 1, into);
            }
        }
    }

    private static Object lookUpQuietly(InitialContext context, String name) {
        try {
            return context.lookup(name);
        } catch (NamingException | RuntimeException notOurs) {
            // a binding that went away meanwhile, or another application's bean we cannot see
            return null;
        }
    }
}
