package io.dispatchpolicy.interfaces.rest;

import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.ConsoleRole;
import jakarta.ws.rs.core.SecurityContext;

import java.util.Arrays;
import java.util.EnumSet;

/** Who calls the API, as the engine's permission checks and audit take an actor: the user and their console roles. */
final class ApiActor {

    private ApiActor() {
    }

    static Actor of(SecurityContext security) {
        EnumSet<ConsoleRole> roles = EnumSet.noneOf(ConsoleRole.class);
        Arrays.stream(ConsoleRole.values()).filter(r -> security.isUserInRole(r.roleName())).forEach(roles::add);
        return new Actor(security.getUserPrincipal() == null ? null : security.getUserPrincipal().getName(), roles);
    }
}
