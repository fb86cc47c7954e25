package io.dispatchpolicy.testing;

import org.jboss.arquillian.container.spi.client.deployment.DeploymentScenario;
import org.jboss.arquillian.container.spi.event.DeployManagedDeployments;
import org.jboss.arquillian.container.spi.event.UnDeployManagedDeployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.impl.client.deployment.event.GenerateDeployment;
import org.jboss.arquillian.core.api.Event;
import org.jboss.arquillian.core.api.Instance;
import org.jboss.arquillian.core.api.InstanceProducer;
import org.jboss.arquillian.core.api.annotation.Inject;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.core.spi.EventContext;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.arquillian.test.spi.annotation.ClassScoped;
import org.jboss.arquillian.test.spi.context.ClassContext;
import org.jboss.arquillian.test.spi.event.suite.AfterSuite;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Keeps a test class's deployment deployed for the classes after it that declare the same one — the
 * same {@code @Deployment} method, usually inherited from a base class — instead of undeploying and
 * deploying the same archive again for every class (about 4 s each on this machine, 33 system-test
 * classes). A class that declares another deployment undeploys the kept one first; the last one is
 * undeployed when the run ends, so the server's configuration keeps no test deployment.
 *
 * <p>What the tests may rely on changes accordingly: the application is deployed once per run, not once
 * per class, so a test class starts with what earlier classes left in memory (settings are put back and
 * staged work discarded by the base classes after every test, as they always were between the methods
 * of one class). Failsafe runs the classes in alphabetical order, which keeps each package's classes —
 * and so each kind of deployment — together.
 *
 * <p>Written here rather than taken from arquillian-suite-extension (1.2.2, last released 2021): that
 * one needs a class annotated as the suite's single deployment, finds it by scanning the class path
 * with Reflections 0.9.11, and cannot hold two kinds of deployment in one run (the browser tests run as
 * a client against a deployment of their own). See ADR 0020.
 */
public final class KeptDeployments implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(Keeper.class);
    }

    /** Arquillian makes one per run (its observers are singletons of the run's manager). */
    public static final class Keeper {

        @Inject
        @ClassScoped
        private InstanceProducer<DeploymentScenario> scenario;

        @Inject
        private Instance<ClassContext> classContext;

        @Inject
        private Event<UnDeployManagedDeployments> undeploy;

        /** The {@code @Deployment} method the kept scenario was generated from; null: nothing kept. */
        private Method keptFrom;
        private DeploymentScenario kept;
        private Class<?> keptFor;
        private boolean deployed;
        private boolean undeploying;

        public void generate(@Observes EventContext<GenerateDeployment> context) {
            Class<?> testClass = context.getEvent().getTestClass().getJavaClass();
            Method from = deploymentMethod(testClass);
            if (kept != null && from != null && from.equals(keptFrom)) {
                scenario.set(kept);
                return;
            }
            release();
            context.proceed();
            if (from != null) {
                keptFrom = from;
                kept = scenario.get();
                keptFor = testClass;
                deployed = false;
            }
        }

        public void deploy(@Observes EventContext<DeployManagedDeployments> context) {
            if (kept == null) {
                context.proceed();
            } else if (!deployed) {
                context.proceed(); // throws when the deployment fails: the next class of the same kind tries again
                deployed = true;
            }
        }

        /** The class's own undeploy (after its last test) is skipped while its deployment is kept. */
        public void undeploy(@Observes EventContext<UnDeployManagedDeployments> context) {
            if (kept == null || undeploying) {
                context.proceed();
            }
        }

        /** Before Arquillian stops the containers (a higher precedence runs first). */
        public void end(@Observes(precedence = 100) AfterSuite event) {
            if (kept == null) {
                return;
            }
            // the scenario is class-scoped, and no class is active any more: one is activated to hold it
            ClassContext context = classContext.get();
            Class<?> holder = keptFor;
            context.activate(holder);
            try {
                release();
            } finally {
                context.deactivate();
                context.destroy(holder);
            }
        }

        /** Undeploys the kept deployment, if it is deployed, within the active class's context. */
        private void release() {
            if (kept == null) {
                return;
            }
            DeploymentScenario current = scenario.get();
            scenario.set(kept);
            undeploying = true;
            try {
                if (deployed) {
                    undeploy.fire(new UnDeployManagedDeployments());
                }
            } finally {
                undeploying = false;
                kept = null;
                keptFrom = null;
                keptFor = null;
                deployed = false;
                if (current != null) {
                    scenario.set(current);
                }
            }
        }

        private static Method deploymentMethod(Class<?> testClass) {
            for (Class<?> type = testClass; type != null && type != Object.class; type = type.getSuperclass()) {
                for (Method method : type.getDeclaredMethods()) {
                    if (method.isAnnotationPresent(Deployment.class) && Modifier.isStatic(method.getModifiers())) {
                        return method;
                    }
                }
            }
            return null;
        }
    }
}
