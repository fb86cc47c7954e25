package io.dispatchpolicy.interfaces.web;

import io.dispatchpolicy.interfaces.engine.EngineServices;
import io.dispatchpolicy.interfaces.engine.EngineUnavailableException;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * A page is rendered only when the engine answers; otherwise the console answers at once — within its
 * second, whatever state the engine's deployment is in — with 503 and a banner saying why (ADR 0026).
 * The login page, the error page and the pages' resources need no engine. The JSON API gets the same answer from each call
 * ({@code FailureMapper}).
 */
@WebFilter(urlPatterns = "*.xhtml")
public class EngineAvailabilityFilter extends HttpFilter {

    /** The request attribute {@code unavailable.xhtml} reads the reason from. */
    public static final String UNAVAILABLE = "dispatch.engine.unavailable";

    @Inject
    EngineServices engine;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getServletPath();
        if (path.equals("/login.xhtml") || path.equals("/error.xhtml") || path.equals("/unavailable.xhtml")
                || path.startsWith("/jakarta.faces.resource/")) { // the banner page's own styles and scripts
            chain.doFilter(request, response);
            return;
        }
        try {
            engine.requireAvailable();
        } catch (EngineUnavailableException unavailable) {
            request.setAttribute(UNAVAILABLE, unavailable);
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            response.setHeader("Retry-After", "5");
            request.getRequestDispatcher("/unavailable.xhtml").forward(request, response);
            return;
        }
        chain.doFilter(request, response);
    }
}
