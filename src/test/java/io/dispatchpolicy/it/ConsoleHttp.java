package io.dispatchpolicy.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** Requests to the deployed console and its JSON API, as a browser or a script sends them. */
final class ConsoleHttp {

    static final String CONSOLE = "http://localhost:8080/dispatch/";

    private ConsoleHttp() {
    }

    /** A GET of a path under /dispatch/, with {@code user:password} as HTTP Basic when given. */
    static HttpResponse<String> get(String path, String credentials) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(CONSOLE + path)).GET();
        if (credentials != null) {
            request.header("Authorization", basic(credentials));
        }
        return send(request);
    }

    static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    static HttpResponse<String> send(HttpRequest.Builder request) {
        request.timeout(Duration.ofSeconds(30));
        try {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build()
                    .send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
