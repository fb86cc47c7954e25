package io.dispatchpolicy.devserver;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run command's own settings, from its environment, checked before anything starts.
 *
 * <p>They are named {@code DISPATCH_RUN_*} and never reach WildFly ({@link #removeFrom}): WildFly
 * inherits the environment, MicroProfile Config reads {@code DISPATCH_X_Y} as {@code dispatch.x.y},
 * and the engine refuses unknown {@code dispatch.*} names, which are typos there. For the same reason
 * an unknown {@code DISPATCH_RUN_*} name is refused here.
 *
 * @param runDir      where the database's data, WildFly's base directory and the admin password live
 * @param pgPort      the embedded PostgreSQL's port
 * @param portOffset  WildFly's {@code jboss.socket.binding.port-offset}
 * @param resetConfig take the build's server configuration again instead of the kept one
 * @param notes       lines to print before starting (deprecated names in use)
 */
public record RunSettings(Path runDir, int pgPort, int portOffset, boolean resetConfig, List<String> notes) {

    public static final String DIR = "DISPATCH_RUN_DIR";
    public static final String PG_PORT = "DISPATCH_RUN_PG_PORT";
    public static final String PORT_OFFSET = "DISPATCH_RUN_PORT_OFFSET";
    public static final String RESET_CONFIG = "DISPATCH_RUN_RESET_CONFIG";
    /** The name {@link #PG_PORT} had before; still accepted, with a note. */
    public static final String OLD_PG_PORT = "DISPATCH_PG_PORT";

    public static final int DEFAULT_PG_PORT = 55432;
    public static final int HTTP_PORT = 8080;
    public static final int MANAGEMENT_PORT = 9990;
    /** WildFly's highest default binding (management HTTPS): the offset must leave room for it. */
    private static final int HIGHEST_BINDING = 9993;

    private static final String OWN_PREFIX = "DISPATCH_RUN_";
    private static final Set<String> OWN = Set.of(DIR, PG_PORT, PORT_OFFSET, RESET_CONFIG);

    /** A setting the run command cannot start with; its message is one line that names it. */
    public static final class InvalidRunSetting extends RuntimeException {
        InvalidRunSetting(String message) {
            super(message);
        }
    }

    /**
     * @param env            the run command's environment
     * @param defaultRunDir  where the run directory is unless {@link #DIR} names another (the build
     *                       passes the repository's {@code .run}); may be null when {@link #DIR} is set
     */
    public static RunSettings from(Map<String, String> env, String defaultRunDir) {
        for (String name : env.keySet()) {
            if (name.startsWith(OWN_PREFIX) && !OWN.contains(name)) {
                throw new InvalidRunSetting("Unknown variable " + name + " (a typo?): the run command knows "
                        + String.join(", ", List.of(DIR, PG_PORT, PORT_OFFSET, RESET_CONFIG)));
            }
        }
        String dir = value(env, DIR);
        if (dir == null) {
            dir = defaultRunDir;
        }
        if (dir == null) {
            throw new InvalidRunSetting("No run directory: set " + DIR + ", or start with ./mvnw -Prun verify");
        }
        List<String> notes = new ArrayList<>();
        String pgPortName = PG_PORT;
        if (value(env, OLD_PG_PORT) != null && value(env, PG_PORT) == null) {
            notes.add("Note: " + OLD_PG_PORT + " is deprecated; it still sets the PostgreSQL port, but use " + PG_PORT + ".");
            pgPortName = OLD_PG_PORT;
        } else if (value(env, OLD_PG_PORT) != null) {
            notes.add("Note: " + OLD_PG_PORT + " is deprecated and ignored: " + PG_PORT + " is set.");
        }
        String pgPort = value(env, pgPortName);
        int port = pgPort == null ? DEFAULT_PG_PORT : integer(pgPortName, pgPort, 1, 65535);
        String offset = value(env, PORT_OFFSET);
        int portOffset = offset == null ? 0 : integer(PORT_OFFSET, offset, 0, 65535 - HIGHEST_BINDING);
        return new RunSettings(Path.of(dir).toAbsolutePath().normalize(), port, portOffset,
                bool(RESET_CONFIG, value(env, RESET_CONFIG)), List.copyOf(notes));
    }

    public int httpPort() {
        return HTTP_PORT + portOffset;
    }

    public int managementPort() {
        return MANAGEMENT_PORT + portOffset;
    }

    /** Removes the run command's variables, the deprecated one included, from WildFly's environment. */
    public static void removeFrom(Map<String, String> environment) {
        environment.keySet().removeIf(name -> name.startsWith(OWN_PREFIX) || name.equals(OLD_PG_PORT));
    }

    private static String value(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static int integer(String name, String raw, int min, int max) {
        try {
            int value = Integer.parseInt(raw);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // reported below, with the range
        }
        throw new InvalidRunSetting("Invalid " + name + "='" + raw + "': a whole number from " + min + " to " + max);
    }

    private static boolean bool(String name, String raw) {
        if (raw == null || raw.equalsIgnoreCase("false")) {
            return false;
        }
        if (raw.equalsIgnoreCase("true")) {
            return true;
        }
        throw new InvalidRunSetting("Invalid " + name + "='" + raw + "': true or false");
    }
}
