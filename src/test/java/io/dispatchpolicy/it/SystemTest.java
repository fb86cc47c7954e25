package io.dispatchpolicy.it;

import jakarta.inject.Inject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base of every system test: deployed with {@link Deployments#ear()}, run inside the server. Public for
 * the tests that drive the server from outside ({@code @RunAsClient}, in packages of their own, not
 * deployed): they share this deployment (ADR 0020).
 */
@ExtendWith(ArquillianExtension.class)
public abstract class SystemTest {

    @Deployment
    static EnterpriseArchive deployment() {
        return Deployments.ear();
    }

    @Inject
    TestSupport db;
}
