package io.dispatchpolicy.interfaces.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Named;

import java.io.IOException;

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

    /**
     * Guards every changing action: the check is on the server, whatever the page showed.
     *
     * @return true when the caller may act; otherwise a message says why not
     */
    public boolean mayAct(String action) {
        if (isAdmin()) {
            return true;
        }
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR,
                "Not allowed: only " + ADMIN + " may " + action + ".", null));
        return false;
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
