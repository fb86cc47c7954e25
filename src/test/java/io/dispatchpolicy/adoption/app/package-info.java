/**
 * A user's application of the engine, as an adopter writes it: a policy, a job and its batchlet, an EJB
 * that submits through the governed operator, and a REST resource (JSON-B) in front of it. It uses only
 * the engine's public API ({@code io.dispatchpolicy.api}, {@code io.dispatchpolicy.spi}). The adoption
 * test packages it as an EAR and as a WAR.
 */
package io.dispatchpolicy.adoption.app;
