package io.dispatchpolicy.faults.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS at the WAR's root: {@code /fault/ping}, {@code /fault/submit}. */
@ApplicationPath("/")
public class FaultApplication extends Application {
}
