package io.dispatchpolicy.interfaces.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Jakarta REST under {@code /dispatch/api}; the web module's security constraint covers it (HTTP Basic). */
@ApplicationPath("api")
public class ConsoleApi extends Application {
}
