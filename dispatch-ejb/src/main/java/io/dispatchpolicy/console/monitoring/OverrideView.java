package io.dispatchpolicy.console.monitoring;

import java.time.Instant;

/**
 * An operator's override in force for a partition, beside the policy's own value.
 *
 * @param kind        {@code gate} or {@code lane}
 * @param scope       the gate id or lane name
 * @param param       the parameter
 * @param value       the override's value
 * @param policyValue what the policy says without it (a number, "per partition", or "-")
 * @param until       when it ends; null: until cleared
 * @param by          who set it
 * @param at          when
 */
public record OverrideView(String kind, String scope, String param, String value, String policyValue, Instant until,
                           String by, Instant at) implements java.io.Serializable {
}
