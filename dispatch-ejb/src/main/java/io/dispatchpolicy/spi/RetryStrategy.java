package io.dispatchpolicy.spi;

/** What happens when a governed job that FAILED is restarted (by {@code JobOperator.restart} or after a crash). */
public enum RetryStrategy {
    /** The restart goes through the policy like a new submission (default). */
    RESTAGE,
    /** The restart starts at once, skipping the gates. */
    BYPASS
}
