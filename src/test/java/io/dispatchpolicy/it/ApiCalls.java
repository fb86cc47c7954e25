package io.dispatchpolicy.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The API as a script calls it (JSON bodies, HTTP Basic), and its problems (ADR 0038) as the tests check them. */
final class ApiCalls {

    private ApiCalls() {
    }

    /** {@code method} on {@code /dispatch/<path>} with a JSON body (or none), as {@code user:password} (or nobody). */
    static HttpResponse<String> send(String method, String path, String json, String credentials, String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ConsoleHttp.CONSOLE + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (credentials != null) {
            request.header("Authorization", ConsoleHttp.basic(credentials));
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return ConsoleHttp.send(request);
    }

    static HttpResponse<String> send(String method, String path, String json, String credentials) {
        return send(method, path, json, credentials, null);
    }

    static JsonObject json(HttpResponse<String> response) {
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    /** A problem (application/problem+json) with this status, a detail containing {@code detail}, and this field (null: none). */
    static void assertProblem(HttpResponse<String> response, int status, String field, String detail) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        JsonObject problem = json(response);
        assertThat(problem.getInt("status")).isEqualTo(status);
        assertThat(problem.getString("detail")).contains(detail);
        if (field == null) {
            assertThat(problem.containsKey("field")).as(response.body()).isFalse();
        } else {
            assertThat(problem.getString("field")).as(response.body()).isEqualTo(field);
        }
    }
}
