package io.dispatchpolicy.demo;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.Schedule;
import io.dispatchpolicy.spi.ScheduleUnit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The playground's policies: one per card, each governing a job of its own name ({@code pg-throttle}
 * governs {@code pg-throttle}) and partitioned by the {@code tenant} parameter, with numbers small enough
 * to watch a gate work in a minute. The storm's policy combines the adaptive cap with fairness, the pair
 * the seed's storm form shows.
 */
@ApplicationScoped
public class PlaygroundPolicies {

    /** The declared schedule of the schedules card: every five minutes, and "run now" on the card. */
    public static final String SCHEDULE = "pg-every-5-minutes";

    @Produces
    Policy throttle() {
        return tenants(Feature.THROTTLE).gate(Gate.throttle(5, Duration.ofSeconds(10))).build();
    }

    @Produces
    Policy concurrency() {
        return tenants(Feature.CONCURRENCY).gate(Gate.concurrency(2)).build();
    }

    @Produces
    Policy adaptive() {
        return tenants(Feature.ADAPTIVE).gate(Gate.adaptiveConcurrency(1, 300)).build();
    }

    @Produces
    Policy fairness() {
        // four slots for every tenant together, handed out by decayed admits: a newcomer goes first
        return tenants(Feature.FAIRNESS).capacity(4).fairness(Duration.ofSeconds(30)).tickAdmissionBudget(4).build();
    }

    @Produces
    Policy lanes() {
        return tenants(Feature.LANES).gate(Gate.concurrency(6)).capacity(6)
                .lane("critical", 3, 2).lane("bulk", 1).defaultLane("bulk").build();
    }

    @Produces
    Policy demotion() {
        return tenants(Feature.DEMOTION).gate(Gate.concurrency(4)).capacity(4)
                .lane("default", 9).lane("slow", 1)
                .demote(10, Duration.ofMinutes(1), "slow").build();
    }

    @Produces
    Policy priority() {
        return tenants(Feature.PRIORITY).gate(Gate.concurrency(1)).build();
    }

    @Produces
    Policy delay() {
        return tenants(Feature.DELAY).build();
    }

    @Produces
    Policy retries() {
        return tenants(Feature.RETRIES).retry(Retries.fixed(Duration.ofSeconds(2)).maxRetries(2)).build();
    }

    @Produces
    Policy schedules() {
        return tenants(Feature.SCHEDULES).gate(Gate.concurrency(1)).build();
    }

    @Produces
    Schedule everyFiveMinutes() {
        return Schedule.named(SCHEDULE).job(Feature.SCHEDULES.job()).parameter("tenant", "scheduled")
                .parameter("millis", "1000").every(5, ScheduleUnit.MINUTES).from(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
    }

    @Produces
    Policy sharding() {
        return tenants(Feature.SHARDING).shardBy(ctx -> "pg-shard-" + Math.floorMod(ctx.get("tenant").hashCode(), 4))
                .gate(Gate.concurrency(1)).build();
    }

    @Produces
    Policy uniqueness() {
        return tenants(Feature.UNIQUENESS).build();
    }

    @Produces
    Policy deadline() {
        return tenants(Feature.DEADLINE).gate(Gate.concurrency(1)).build();
    }

    @Produces
    Policy timeout() {
        return tenants(Feature.TIMEOUT).timeout(Duration.ofSeconds(3)).build();
    }

    @Produces
    Policy storm() {
        return tenants(Feature.STORM).gate(Gate.adaptiveConcurrency(2, 500)).fairness(Duration.ofSeconds(30))
                .tickAdmissionBudget(20).capacity(16).build();
    }

    private static Policy.Builder tenants(Feature feature) {
        return Policy.named(feature.job()).governs(feature.job())
                .context(params -> Map.of("tenant", params.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"));
    }
}
