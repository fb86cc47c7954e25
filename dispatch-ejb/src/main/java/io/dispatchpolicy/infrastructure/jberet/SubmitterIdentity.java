package io.dispatchpolicy.infrastructure.jberet;

import org.jberet.spi.BatchEnvironment;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;

/**
 * Runs code as a named user of the batch subsystem's security domain (issue 33, ADR 0024). WildFly's batch
 * environment runs a job as the identity that was current when its runner was handed over
 * ({@code submitTask}); the engine hands runners over on its own thread after the admitting transaction
 * commits, so without this every governed job would run as nobody. Handed over inside
 * {@code runAs(submitter)}, the job — its own code, its listeners and the beans it calls — runs as the user
 * who submitted it, with the roles the realm gives that user now (a user who lost a role runs without it;
 * one the realm does not know runs as nobody in particular, with one WARNING per user).
 *
 * <p>As {@link BatchPermissionCheck}, through reflection on the environment WildFly hands us (its
 * {@code SecurityAwareBatchEnvironment} is in a private module; Elytron's {@code SecurityDomain},
 * {@code SecurityIdentity#createRunAsIdentity} and {@code runAs} are public API).
 */
public final class SubmitterIdentity {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(SubmitterIdentity.class.getName());

    /** Users already reported as unknown to the realm: one WARNING each per deployment, not one per job. */
    private static final java.util.Set<String> UNKNOWN_USERS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Elytron's methods, looked up once: this runs for every runner handed over (the admitting transaction's
     * commit), where reflective lookups per job would be pure waste.
     */
    private record Elytron(Method anonymous, Method newContext, Method setName, Method authorize, Method succeed,
                           Method authorized, Method close, Method runAs) {
        static Elytron of(Object domain) throws ReflectiveOperationException {
            Method anonymous = domain.getClass().getMethod("getAnonymousSecurityIdentity");
            Method newContext = domain.getClass().getMethod("createNewAuthenticationContext");
            Class<?> context = newContext.getReturnType();
            return new Elytron(anonymous, newContext, context.getMethod("setAuthenticationName", String.class),
                    context.getMethod("authorize"), context.getMethod("succeed"), context.getMethod("getAuthorizedIdentity"),
                    context.getMethod("close"), anonymous.getReturnType().getMethod("runAs", Callable.class));
        }

        /**
         * The realm's identity of {@code user}, with the roles the realm gives them now; null when it does not know
         * them. The authentication is completed ({@code succeed}): one closed without it counts as a failed login,
         * and Elytron's brute-force protection (WildFly 32 and later) disabled a user after ten of their jobs —
         * with no roles for their jobs, and no login for themselves (ADR 0024). {@code createRunAsIdentity}
         * closes its context that way, so it is not used.
         */
        Object identityOf(Object domain, String user) throws ReflectiveOperationException {
            Object context = newContext.invoke(domain);
            try {
                setName.invoke(context, user);
                if (!(Boolean) authorize.invoke(context)) {
                    return null;
                }
                succeed.invoke(context);
                return authorized.invoke(context);
            } finally {
                close.invoke(context);
            }
        }
    }

    private static volatile Method getSecurityDomain;
    private static volatile Elytron elytron;

    private SubmitterIdentity() {
    }

    /** Runs {@code action} as {@code user}; as the current identity when there is no user or no security domain. */
    public static <T> T call(BatchEnvironment env, String user, Callable<T> action) throws Exception {
        Object domain = user == null || user.isBlank() ? null : domainOf(env);
        if (domain == null) {
            return action.call();
        }
        try {
            Elytron methods = elytron;
            if (methods == null) {
                methods = Elytron.of(domain);
                elytron = methods;
            }
            Object identity;
            try {
                identity = methods.identityOf(domain, user);
            } catch (InvocationTargetException notInTheRealm) {
                identity = null;
            }
            if (identity == null) {
                // the realm does not know the user (any more). The job still runs — as nobody in particular, with
                // no roles — rather than never: its own code decides what it needs.
                if (UNKNOWN_USERS.add(user)) {
                    LOG.warning(() -> "User '" + user + "' cannot be run as (the batch security domain's realm does not "
                            + "know them): the jobs they submitted run as nobody in particular, with no roles");
                }
                identity = methods.anonymous().invoke(domain);
            }
            @SuppressWarnings("unchecked")
            T result = (T) methods.runAs().invoke(identity, action);
            return result;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof java.security.PrivilegedActionException p) {
                cause = p.getCause();
            }
            throw cause instanceof Exception ex ? ex : new IllegalStateException(cause);
        }
    }

    /** {@link #call} for code that returns nothing and throws no checked exception. */
    public static void run(BatchEnvironment env, String user, Runnable action) {
        try {
            call(env, user, () -> {
                action.run();
                return null;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object domainOf(BatchEnvironment env) {
        try {
            // implemented by a private class of WildFly's: reachable once made accessible, as BatchPermissionCheck's
            Method m = getSecurityDomain;
            if (m == null) {
                m = env.getClass().getMethod("getSecurityDomain");
                m.setAccessible(true);
                getSecurityDomain = m;
            }
            return m.invoke(env);
        } catch (ReflectiveOperationException | RuntimeException notWildFlys) {
            return null; // not WildFly's security-aware environment: nothing to run as
        }
    }
}
