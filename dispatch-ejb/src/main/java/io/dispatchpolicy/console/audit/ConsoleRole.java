package io.dispatchpolicy.console.audit;

import java.util.Arrays;
import java.util.Optional;

/**
 * The console's roles, each including the ones before it: a viewer reads; an operator also acts on jobs
 * and on the flow of work (stop, restart, discard, retry, force-admit, pause, resume, drain); an admin
 * also changes what runs and when (schedules, per-partition overrides). The names are the roles the
 * server's security realm grants (e.g. {@code add-user.sh -a -g dispatch-operator}).
 */
public enum ConsoleRole {
    VIEWER("dispatch-viewer"),
    OPERATOR("dispatch-operator"),
    ADMIN("dispatch-admin");

    private final String roleName;

    ConsoleRole(String roleName) {
        this.roleName = roleName;
    }

    /** The role's name in the security realm. */
    public String roleName() {
        return roleName;
    }

    /** Whether this role includes {@code needed}. */
    public boolean includes(ConsoleRole needed) {
        return compareTo(needed) >= 0;
    }

    public static Optional<ConsoleRole> named(String roleName) {
        return Arrays.stream(values()).filter(r -> r.roleName.equals(roleName)).findFirst();
    }
}
