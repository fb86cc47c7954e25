package io.dispatchpolicy.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the test receiver ({@link WebhookReceiver}) was sent, shared with the tests: the receiver's WAR loads this
 * class from the tests' module (it is not in the WAR), so both see one inbox; what the WAR calls is public, since the two
 * loaders make two runtime packages of one name.
 */
public final class WebhookInbox {

    /** One request as the receiver saw it, and the status it answered. */
    public record Received(String path, Map<String, String> headers, String body, int answered) {
    }

    private static final List<Received> RECEIVED = new ArrayList<>();
    private static final AtomicInteger FAIL_NEXT = new AtomicInteger();

    private WebhookInbox() {
    }

    public static synchronized void clear() {
        RECEIVED.clear();
        FAIL_NEXT.set(0);
    }

    /** The next {@code n} requests to {@code /webhook/ok} are answered 503. */
    public static void failNext(int n) {
        FAIL_NEXT.set(n);
    }

    /** The status to answer a request to {@code path}: {@code down} always fails, {@code ok} after the failures asked. */
    public static int answer(String path) {
        if (path.endsWith("/down")) {
            return 500;
        }
        return FAIL_NEXT.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 503 : 204;
    }

    public static synchronized void received(Received r) {
        RECEIVED.add(r);
    }

    public static synchronized List<Received> all() {
        return List.copyOf(RECEIVED);
    }
}
