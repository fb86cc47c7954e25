package io.dispatchpolicy.spi;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

/**
 * A submission's key from its job parameters: its uniqueness key ({@code Policy.Builder.unique}) or its
 * debounce key ({@code Policy.Builder.debounce}). A null or blank key means the job has none: it is staged
 * as if the control were not there.
 */
@FunctionalInterface
public interface KeyFunction {

    String keyOf(Properties parameters);

    /**
     * The key made of these parameters: {@code name=value} pairs in the order given, joined by {@code &},
     * names and values URL-encoded (so no two different sets of values make the same key). A job without
     * any of them has no key.
     */
    static KeyFunction parameters(String... names) {
        if (names == null || names.length == 0) {
            throw new IllegalArgumentException("name at least one job parameter");
        }
        List<String> listed = List.of(names);
        for (String n : listed) {
            if (n == null || n.isBlank()) {
                throw new IllegalArgumentException("a job parameter's name must not be blank: " + listed);
            }
        }
        return params -> {
            StringBuilder key = new StringBuilder();
            boolean any = false;
            for (String n : listed) {
                String v = params.getProperty(n);
                any |= v != null;
                if (key.length() > 0) {
                    key.append('&');
                }
                key.append(URLEncoder.encode(n, StandardCharsets.UTF_8)).append('=')
                        .append(v == null ? "" : URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
            return any ? key.toString() : null;
        };
    }
}
