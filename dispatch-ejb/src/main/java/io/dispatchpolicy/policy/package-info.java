/**
 * The policies: the index of those declared in code and in standalone.xml
 * ({@link io.dispatchpolicy.policy.PolicyRegistry}), the reader of their {@code dispatch.policy.*}
 * settings ({@link io.dispatchpolicy.policy.PolicySettings}), the policy in force with its settings
 * applied ({@link io.dispatchpolicy.policy.EffectivePolicy}), and the policies held by a bad value
 * written at runtime ({@link io.dispatchpolicy.policy.HeldPolicies}). Depends on the spi, the domain
 * and the configuration only (and JBeret, to check a governed job exists): every role above reads
 * policies from here (ADR 0018).
 */
package io.dispatchpolicy.policy;
