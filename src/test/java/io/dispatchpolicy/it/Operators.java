package io.dispatchpolicy.it;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.ConsoleRole;

/** Actors the system tests act as, one per console role (ADR 0022). */
public final class Operators {

    public static final Actor ADMIN = Actor.of("it-admin", ConsoleRole.ADMIN);
    public static final Actor OPERATOR = Actor.of("it-operator", ConsoleRole.OPERATOR);
    public static final Actor VIEWER = Actor.of("it-viewer", ConsoleRole.VIEWER);

    private Operators() {
    }
}
