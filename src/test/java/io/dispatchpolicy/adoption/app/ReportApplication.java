package io.dispatchpolicy.adoption.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("api")
public class ReportApplication extends Application {
}
