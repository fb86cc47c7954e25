/**
 * The playground's page ({@code /dispatch/playground}): the run command adds this package to the console's
 * WAR, so the console's login, roles and session serve it. It calls the demo module's {@link
 * io.dispatchpolicy.demo.Playground} and {@link io.dispatchpolicy.demo.Storm}, nothing of the engine.
 */
package io.dispatchpolicy.demo.web;
