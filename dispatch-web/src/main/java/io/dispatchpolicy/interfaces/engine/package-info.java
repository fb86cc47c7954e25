/**
 * How the console reaches the engine: its three services (monitoring, policy and partition control)
 * looked up as EJBs, whether the engine is a module of the console's own EAR or lives in another
 * deployment (a user's WAR) whose classes the console shares through a module alias. Views inject
 * them with the {@link io.dispatchpolicy.interfaces.engine.Engine} qualifier.
 */
package io.dispatchpolicy.interfaces.engine;
