package io.dispatchpolicy.it;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test-only (the {@code it-submit} WAR): a webhook receiver. {@code POST /it-submit/webhook/ok} answers 204, or 503 while
 * {@link WebhookInbox#failNext} says so; {@code /webhook/down} always 500. Every request is kept in the inbox.
 */
@WebServlet("/webhook/*")
public class WebhookReceiver extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        java.util.Collections.list(request.getHeaderNames()).forEach(h -> headers.put(h, request.getHeader(h)));
        String path = request.getRequestURI();
        int status = WebhookInbox.answer(path);
        WebhookInbox.received(new WebhookInbox.Received(path, headers, body, status));
        response.setStatus(status);
    }
}
