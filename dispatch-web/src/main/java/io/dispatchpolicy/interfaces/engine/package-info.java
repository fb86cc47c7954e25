/**
 * How the console reaches the engine, whatever state the engine's deployment is in (ADR 0026): its
 * services looked up as EJBs — a module of the console's own EAR, or another deployment (a user's WAR)
 * whose contract classes are another class loader's, called by value ({@code ByValue}) — each call
 * through one guard ({@code EngineServices}) that answers {@link
 * io.dispatchpolicy.interfaces.engine.EngineUnavailableException} at once while the engine is missing,
 * starting, stopping or failed. Views inject the services with the {@link
 * io.dispatchpolicy.interfaces.engine.Engine} qualifier.
 */
package io.dispatchpolicy.interfaces.engine;
