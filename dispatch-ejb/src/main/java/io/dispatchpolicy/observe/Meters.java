package io.dispatchpolicy.observe;

import java.util.function.DoubleSupplier;

/** Where the engine's figures go: a metrics registry, or nowhere when the server has none. */
interface Meters {

    /** Adds {@code amount} to a counter; {@code tags} are name, value pairs. */
    void count(String name, double amount, String... tags);

    /** Records one duration of a timer. */
    void time(String name, long nanos, String... tags);

    /** A gauge that reads {@code value} when scraped; registered once per name and tags. */
    void gauge(String name, DoubleSupplier value, String... tags);

    /** No registry: every figure is dropped. */
    Meters NONE = new Meters() {
        @Override
        public void count(String name, double amount, String... tags) {
            // no metrics subsystem
        }

        @Override
        public void time(String name, long nanos, String... tags) {
            // no metrics subsystem
        }

        @Override
        public void gauge(String name, DoubleSupplier value, String... tags) {
            // no metrics subsystem
        }
    };
}
