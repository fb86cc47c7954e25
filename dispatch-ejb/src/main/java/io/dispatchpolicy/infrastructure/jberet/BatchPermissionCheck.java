package io.dispatchpolicy.infrastructure.jberet;

import jakarta.batch.operations.JobSecurityException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jberet.spi.BatchEnvironment;

import java.lang.reflect.Method;
import java.security.Permission;

/**
 * The check WildFly's {@code JobOperatorService.start} makes and the engine's own start path would
 * otherwise skip: when the batch subsystem has a security domain, the submitting identity must hold
 * {@code BatchPermission("start")}. It also yields the user name JBeret records on the execution.
 *
 * <p>WildFly's {@code SecurityAwareBatchEnvironment} and {@code BatchPermission} live in a private
 * module; rather than depend on it (and log a private-module warning on every deployment), the few
 * calls go through reflection on the environment object WildFly hands us.
 */
@ApplicationScoped
public class BatchPermissionCheck {

    private static final String BATCH_PERMISSION = "org.wildfly.extension.batch.jberet.deployment.BatchPermission";

    @Inject
    JobRuntime runtime;

    private volatile Reflection reflection;

    /**
     * Refuses the caller when it lacks {@code BatchPermission(action)} ({@code start} or {@code restart}).
     *
     * @return the caller's user name as JBeret would record it, or null when anonymous or unsecured
     */
    public String authorize(String action) {
        BatchEnvironment env = runtime.environment();
        Reflection r = reflection(env);
        if (r == null) {
            return null;
        }
        try {
            Object identity = r.getIdentity().invoke(env);
            Permission permission = (Permission) r.forName().invoke(null, action);
            if (identity != null && !(Boolean) r.implies().invoke(identity, permission)) {
                throw new JobSecurityException("The caller is not allowed to " + action + " batch jobs (BatchPermission "
                        + action + ")");
            }
            return (String) r.getCurrentUserName().invoke(env);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot check BatchPermission on " + env.getClass().getName(), e);
        }
    }

    private Reflection reflection(BatchEnvironment env) {
        Reflection r = reflection;
        if (r == null) {
            r = Reflection.of(env);
            reflection = r;
        }
        return r.getIdentity() == null ? null : r;
    }

    private record Reflection(Method getIdentity, Method getCurrentUserName, Method implies, Method forName) {
        static Reflection of(BatchEnvironment env) {
            try {
                Method getIdentity = env.getClass().getMethod("getIdentity");
                getIdentity.setAccessible(true);
                Method getUser = env.getClass().getMethod("getCurrentUserName");
                getUser.setAccessible(true);
                Class<?> permissionClass = Class.forName(BATCH_PERMISSION, true, env.getClass().getClassLoader());
                Method forName = permissionClass.getMethod("forName", String.class);
                Method implies = getIdentity.getReturnType().getMethod("implies", Permission.class);
                return new Reflection(getIdentity, getUser, implies, forName);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // Not WildFly's security-aware environment: there is nothing to check.
                return new Reflection(null, null, null, null);
            }
        }
    }
}
