package io.dispatchpolicy.console.audit;

import java.io.Serializable;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Who asks for an action, as the console or the API authenticated them: the user name and the console
 * roles the security realm granted. Built at the boundary from the request, never from input.
 */
public record Actor(String name, Set<ConsoleRole> roles) implements Serializable {

    public Actor {
        Objects.requireNonNull(name, "name");
        roles = roles.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(roles));
    }

    public static Actor of(String name, ConsoleRole... roles) {
        return new Actor(name, roles.length == 0 ? Set.of() : EnumSet.of(roles[0], roles));
    }

    /** Whether one of the actor's roles includes the one the action needs. */
    public boolean may(OperatorAction action) {
        return roles.stream().anyMatch(r -> r.includes(action.role()));
    }

    /** The message a refused action answers with: who, what, and the role it needs. */
    public String refusal(OperatorAction action) {
        return "Not allowed: only " + action.role().roleName() + " (or a role above it) may " + action.verb()
                + "; " + name + " has " + (roles.isEmpty() ? "no console role"
                : roles.stream().map(ConsoleRole::roleName).sorted().toList()) + ".";
    }
}
