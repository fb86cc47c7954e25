package io.dispatchpolicy.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named limit several policies share (ADR 0049): the calls of an export policy and a sync policy to the same
 * provider, whose limit is per customer and in all. Declared once — a CDI producer of {@code Limit}, or
 * {@code dispatch.limit.<name>.*} in standalone.xml — and referenced by name from each policy
 * ({@link Policy.Builder#limit}). A job is admitted only when every limit its policy references allows it, as well
 * as its own gates; its slots and tokens are taken from all of them in its admission's transaction, or from none.
 *
 * <pre>{@code
 * @Produces Limit crm() {
 *     return Limit.named("crm-api").perKey("customer")   // the context value of each policy that names the key
 *             .concurrency(5)                           // per customer, across the policies that use it
 *             .totalConcurrency(8)                      // and in all
 *             .build();
 * }
 * }</pre>
 *
 * @param name             letters, digits, '_', '.' or '-' (at most 63)
 * @param key              the context value whose value is the per-key limits' key; null: only total limits
 * @param concurrency      slots in flight per key; null: none
 * @param rate             tokens per {@code per} per key (a token bucket that starts full, as a throttle gate); null: none
 * @param per              the rate's period
 * @param totalConcurrency slots in flight in all; null: none
 * @param totalRate        tokens per {@code totalPer} in all; null: none
 * @param totalPer         the total rate's period
 */
public record Limit(String name, String key, Integer concurrency, Double rate, Duration per, Integer totalConcurrency,
                    Double totalRate, Duration totalPer) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    public Limit {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new PolicyDeclarationException("Limit name '" + name
                    + "' is invalid: use 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit");
        }
        String prefix = "Limit '" + name + "': ";
        if (key != null && key.isBlank()) {
            throw new PolicyDeclarationException(prefix + "perKey needs the name of a context value");
        }
        if (key == null && (concurrency != null || rate != null)) {
            throw new PolicyDeclarationException(prefix + "a per-key concurrency or rate needs perKey(contextValue)");
        }
        if (key != null && concurrency == null && rate == null) {
            throw new PolicyDeclarationException(prefix + "perKey without a per-key concurrency or rate limits nothing");
        }
        if (concurrency == null && rate == null && totalConcurrency == null && totalRate == null) {
            throw new PolicyDeclarationException(prefix + "limits nothing: give a concurrency or a rate, per key or in total");
        }
        positive(prefix + "concurrency", concurrency);
        positive(prefix + "total concurrency", totalConcurrency);
        nonNegative(prefix + "rate", rate);
        nonNegative(prefix + "total rate", totalRate);
        period(prefix + "rate's period", rate, per);
        period(prefix + "total rate's period", totalRate, totalPer);
    }

    private static void positive(String what, Integer value) {
        if (value != null && value < 1) {
            throw new PolicyDeclarationException(what + " must be >= 1, was " + value);
        }
    }

    private static void nonNegative(String what, Double value) {
        if (value != null && (value < 0 || value.isNaN() || value.isInfinite())) {
            throw new PolicyDeclarationException(what + " must be a number >= 0, was " + value);
        }
    }

    private static void period(String what, Double rate, Duration per) {
        if (rate != null && (per == null || per.isNegative() || per.isZero())) {
            throw new PolicyDeclarationException(what + " must be positive, was " + per);
        }
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /** The period of the per-key rate in seconds. */
    public double perSeconds() {
        return per.toMillis() / 1000.0;
    }

    /** The period of the total rate in seconds. */
    public double totalPerSeconds() {
        return totalPer.toMillis() / 1000.0;
    }

    public static final class Builder {
        private final String name;
        private String key;
        private Integer concurrency;
        private Double rate;
        private Duration per;
        private Integer totalConcurrency;
        private Double totalRate;
        private Duration totalPer;

        private Builder(String name) {
            this.name = name;
        }

        /** Per-key limits count each value of this context value apart (each policy's context must carry it). */
        public Builder perKey(String contextValue) {
            this.key = Objects.requireNonNull(contextValue, "contextValue");
            return this;
        }

        /** At most {@code max} slots in flight per key, over every policy that references the limit. */
        public Builder concurrency(int max) {
            this.concurrency = max;
            return this;
        }

        /** At most {@code rate} jobs (tokens: a job takes its cost) per {@code per} per key. */
        public Builder throttle(double rate, Duration per) {
            this.rate = rate;
            this.per = per;
            return this;
        }

        /** At most {@code max} slots in flight in all. */
        public Builder totalConcurrency(int max) {
            this.totalConcurrency = max;
            return this;
        }

        /** At most {@code rate} jobs per {@code per} in all. */
        public Builder totalThrottle(double rate, Duration per) {
            this.totalRate = rate;
            this.totalPer = per;
            return this;
        }

        public Limit build() {
            return new Limit(name, key, concurrency, rate, per, totalConcurrency, totalRate, totalPer);
        }
    }
}
