package io.dispatchpolicy.bench;

import io.dispatchpolicy.spi.Policy;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;

import static io.dispatchpolicy.it.TestPolicies.byTenantWith;

/**
 * The limits benchmark's {@value #COUNT} policies (pass-through, by tenant), each governing a job of its
 * own ({@code bench-lp-<i>}), declared as an application declares policies: {@link Policy} beans. Registered
 * only in {@link LimitsBench}'s deployment (its {@code META-INF/services} entry), with the job XMLs.
 */
public class LimitsPolicies implements Extension {

    static final int COUNT = 1_000;

    static String name(int i) {
        return "bench-lp-" + i;
    }

    void declare(@Observes AfterBeanDiscovery discovery) {
        for (int i = 0; i < COUNT; i++) {
            Policy policy = byTenantWith(name(i)).build();
            discovery.addBean().beanClass(LimitsPolicies.class).types(Policy.class, Object.class)
                    .qualifiers(Default.Literal.INSTANCE, Any.Literal.INSTANCE).scope(Dependent.class)
                    .id(LimitsPolicies.class.getName() + "#" + name(i)).createWith(context -> policy);
        }
    }
}
