package io.dispatchpolicy.interfaces.rest;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Answers 401 to an API call without valid credentials. The console and the API share one login
 * configuration ({@code BASIC?silent=true,FORM}), so such a call is forwarded to the login form like a
 * browser would be, and a monitoring script would read the form's 200 as success: the forward of an
 * {@code /api/} request to the login page is turned into a Basic challenge instead.
 */
@WebFilter(urlPatterns = "/login.xhtml", dispatcherTypes = DispatcherType.FORWARD)
public class ApiChallenge extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Object forwardedFrom = request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI);
        if (forwardedFrom instanceof String uri && uri.startsWith(request.getContextPath() + "/api/")) {
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader("WWW-Authenticate", "Basic realm=\"ApplicationRealm\", charset=\"UTF-8\"");
            response.setContentType(Problem.MEDIA_TYPE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(jakarta.json.Json.createObjectBuilder().add("type", "about:blank").add("title", "Unauthorized")
                    .add("status", 401).add("detail", "Authentication required: HTTP Basic credentials of a console account")
                    .build().toString());
            return;
        }
        chain.doFilter(request, response);
    }
}
