package io.dispatchpolicy.bench;

import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;

import java.time.Instant;

/**
 * The limits benchmark's schedules: {@code dispatch.test.bench.limits.schedules} of them (set on the
 * server: {@code -Dbench.server.jvm=-Ddispatch.test.bench.limits.schedules=100000}; none by default),
 * daily from 2100, so each has one live future occurrence staged and none falls due while the benchmark
 * runs; each in a partition of its own of {@code bench-latency} (which no other limits case drains). Declared as an application declares
 * them: {@link Schedule} beans. Registered only in {@link LimitsBench}'s deployment.
 */
public class LimitsSchedules implements Extension {

    static int count() {
        return Integer.getInteger("dispatch.test.bench.limits.schedules", 0);
    }

    void declare(@Observes AfterBeanDiscovery discovery) {
        Instant anchor = Instant.parse("2100-01-01T00:00:00Z");
        for (int i = 0; i < count(); i++) {
            Schedule schedule = Schedule.named("bench-ls-" + i).job("bench-latency").parameter("tenant", "sched-" + i)
                    .every(1, ScheduleUnit.DAYS).from(anchor).build();
            discovery.addBean().beanClass(LimitsSchedules.class).types(Schedule.class, Object.class)
                    .qualifiers(Default.Literal.INSTANCE, Any.Literal.INSTANCE).scope(Dependent.class)
                    .id(LimitsSchedules.class.getName() + "#" + i).createWith(context -> schedule);
        }
    }
}
