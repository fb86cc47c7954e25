package io.dispatchpolicy.console.monitoring;

import java.util.List;

/**
 * A named limit on the console's Limits page and at {@code GET /api/limits} (ADR 0049).
 *
 * @param name       its name
 * @param values     what it allows, as its settings say now ("5 per tenant · 8 in all"); or why they cannot be read
 * @param perKey     the context value it is kept per, null for a limit with totals only (no keys to list)
 * @param policies   the declared policies that reference it now
 * @param inFlight   slots in flight in all, over every policy that uses it
 * @param totalTokens its total bucket's tokens as last charged (null: no total rate, or never charged)
 * @param keys       its busiest keys: in flight and tokens, at most {@link #KEYS}
 */
public record LimitView(String name, String values, String perKey, List<String> policies, long inFlight, Double totalTokens, List<KeyUse> keys)
        implements java.io.Serializable {

    /** The most keys listed per limit. */
    public static final int KEYS = 20;

    /** One key of a limit: its slots in flight and its bucket's tokens as last charged (null: none). */
    public record KeyUse(String key, long inFlight, Double tokens) implements java.io.Serializable {
    }
}
