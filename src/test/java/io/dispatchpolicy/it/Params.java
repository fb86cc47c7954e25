package io.dispatchpolicy.it;

import java.util.Properties;

/** Builds job parameters: {@code Params.of("tenant", "acme")}. */
public final class Params {

    private Params() {
    }

    public static Properties of(String... keysAndValues) {
        Properties p = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return p;
    }
}
