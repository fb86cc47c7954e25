package io.dispatchpolicy.console;

import java.time.Instant;

/**
 * Says, without a call into the engine, that an engine deployment has started: a JVM-wide marker the
 * engine raises at the end of its start and lowers first thing when it stops, keyed by the class loader
 * of its copy of the console contract (one per deployment incarnation). The console reads it before its
 * first call to an engine it found, because WildFly holds calls into a deployment whose start has not
 * completed — forever when the start failed — and a call held there keeps the deployment from being
 * removed (ADR 0026). A system property is the one registry both sides share with no class in common:
 * JNDI is read-only to applications at run time, and the platform MBean server is not guaranteed without
 * the JMX subsystem.
 */
public final class EngineBeacon {

    private static final String PREFIX = "io.dispatchpolicy.engine.started.";

    private EngineBeacon() {
    }

    /** The engine whose contract {@code contract} loaded has started (now). */
    public static void raise(ClassLoader contract) {
        System.setProperty(key(contract), Instant.now().toString());
    }

    /** That engine is stopping (or gone). */
    public static void lower(ClassLoader contract) {
        System.clearProperty(key(contract));
    }

    /** Whether the engine whose contract {@code contract} loaded has started and not stopped. */
    public static boolean raised(ClassLoader contract) {
        return System.getProperty(key(contract)) != null;
    }

    private static String key(ClassLoader contract) {
        return PREFIX + Integer.toHexString(System.identityHashCode(contract));
    }
}
