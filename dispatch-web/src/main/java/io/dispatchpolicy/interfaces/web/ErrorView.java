package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.config.InvalidSettingException;
import io.dispatchpolicy.console.monitoring.Monitoring;
import io.dispatchpolicy.interfaces.engine.Engine;
import io.dispatchpolicy.interfaces.engine.EngineUnavailableException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.RequestDispatcher;

/**
 * The console's error page: says in words what went wrong — the database is unreachable, a setting is
 * invalid — and never shows a stack trace.
 */
@Named
@RequestScoped
public class ErrorView {

    @Inject
    @Engine
    Monitoring monitoring;

    public String getMessage() {
        java.util.Map<String, Object> request = FacesContext.getCurrentInstance().getExternalContext().getRequestMap();
        Object error = request.get(RequestDispatcher.ERROR_EXCEPTION);
        for (Throwable t = error instanceof Throwable th ? th : null; t != null; t = t.getCause()) {
            if (t instanceof EngineUnavailableException unavailable) {
                return "The engine is unavailable: " + unavailable.getMessage();
            }
        }
        try {
            if (!monitoring.nodeStatus().databaseReachable()) {
                return "The database is unreachable from this node; the console shows its figures again once it is back.";
            }
        } catch (EngineUnavailableException unavailable) {
            return "The engine is unavailable: " + unavailable.getMessage();
        }
        if (Integer.valueOf(404).equals(request.get(RequestDispatcher.ERROR_STATUS_CODE))) {
            return "There is no such page.";
        }
        for (Throwable t = error instanceof Throwable th ? th : null; t != null; t = t.getCause()) {
            if (t instanceof InvalidSettingException invalid) {
                return invalid.getMessage();
            }
        }
        return "An unexpected error occurred.";
    }
}
