/**
 * What the fault suite deploys as its own WAR ({@code /fault}, no login, unlike the console): a JAX-RS
 * endpoint the test JVM calls to submit a storm and to tell that the deployment is up. Runs inside
 * WildFly.
 */
package io.dispatchpolicy.faults.web;
