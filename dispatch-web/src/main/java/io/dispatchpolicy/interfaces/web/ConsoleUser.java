package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.console.audit.ActionRefused;
import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.ConsoleRole;
import io.dispatchpolicy.console.audit.OperatorAction;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Named;

import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.function.BooleanSupplier;

/** Who is logged in, what they may do, and logging out. */
@Named
@RequestScoped
public class ConsoleUser {

    public static final String ADMIN = "dispatch-admin";

    public String getName() {
        ExternalContext ctx = FacesContext.getCurrentInstance().getExternalContext();
        return ctx.getUserPrincipal() == null ? "" : ctx.getUserPrincipal().getName();
    }

    public boolean isAdmin() {
        return FacesContext.getCurrentInstance().getExternalContext().isUserInRole(ADMIN);
    }

    /** The user's highest console role, as the header shows it: admin, operator or viewer. */
    public String getRoleLabel() {
        return getActor().roles().stream().max(Enum::compareTo).map(r -> r.name().toLowerCase(java.util.Locale.ROOT))
                .orElse("no role");
    }

    /** The logged-in user and the console roles the realm granted, as the engine's controls take them. */
    public Actor getActor() {
        ExternalContext ctx = FacesContext.getCurrentInstance().getExternalContext();
        EnumSet<ConsoleRole> roles = EnumSet.noneOf(ConsoleRole.class);
        Arrays.stream(ConsoleRole.values()).filter(r -> ctx.isUserInRole(r.roleName())).forEach(roles::add);
        return new Actor(getName(), roles);
    }

    /** Whether the page offers the action (the engine decides, whatever the page shows). */
    public boolean may(String action) {
        return getActor().may(OperatorAction.valueOf(action));
    }

    /**
     * Runs an operator action; the engine checks the user's roles and audits it. A refusal becomes the page's
     * error message.
     *
     * @return false when refused
     */
    public boolean act(BooleanSupplier action) {
        try {
            return action.getAsBoolean();
        } catch (ActionRefused refused) {
            error(refused.getMessage());
            return false;
        }
    }

    public void logout() throws IOException {
        ExternalContext ctx = FacesContext.getCurrentInstance().getExternalContext();
        ctx.invalidateSession();
        ctx.redirect(ctx.getRequestContextPath() + "/");
    }

    static void info(String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_INFO, text, null));
    }

    static void error(String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, text, null));
    }
}
