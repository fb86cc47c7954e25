package io.dispatchpolicy.interfaces.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * Jakarta REST under {@code /dispatch/api}; the web module's security constraint covers it (HTTP Basic).
 * WildFly's MicroProfile OpenAPI describes it at {@code /openapi} (ADR 0038), from these resources as they are.
 */
@ApplicationPath("api")
@OpenAPIDefinition(info = @Info(title = "Dispatch Policy API", version = "0.1.0",
        description = "Read and act on governed Jakarta Batch jobs: submit through a policy, stop, restart, discard, retry; "
                + "pause, resume and drain policies and partitions; overrides; schedules. Reads need a console account "
                + "(dispatch-viewer), writes dispatch-operator, schedule changes dispatch-admin; every write is audited. "
                + "Errors are RFC 9457 problems (application/problem+json) naming the field at fault.",
        license = @License(name = "Apache-2.0", url = "https://www.apache.org/licenses/LICENSE-2.0")),
        security = @SecurityRequirement(name = "console-account"))
@SecurityScheme(securitySchemeName = "console-account", type = SecuritySchemeType.HTTP, scheme = "basic",
        description = "A console account's user name and password (application-users.properties or your security domain)")
public class ConsoleApi extends Application {
}
