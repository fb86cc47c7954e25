package io.dispatchpolicy.it;

import io.dispatchpolicy.api.DispatchOperator;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Test-only (the {@code it-submit} WAR of the test deployment): submits jobs through the policy as an
 * application would, for tests that run outside the server (the browser's). {@code GET
 * /it-submit/submit?job=J&count=N&name=value…}: every other parameter is a job parameter; answers the
 * submission ids, comma-separated.
 */
@WebServlet("/submit")
public class SubmitServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    DispatchOperator dispatch;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Properties parameters = new Properties();
        request.getParameterMap().forEach((name, values) -> {
            if (!name.equals("job") && !name.equals("count")) {
                parameters.setProperty(name, values[0]);
            }
        });
        int count = Integer.parseInt(request.getParameter("count") == null ? "1" : request.getParameter("count"));
        List<Properties> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(parameters);
        }
        long[] ids = dispatch.submitAll(request.getParameter("job"), jobs);
        response.setContentType("text/plain");
        response.getWriter().write(java.util.Arrays.stream(ids).mapToObj(Long::toString).collect(Collectors.joining(",")));
    }
}
