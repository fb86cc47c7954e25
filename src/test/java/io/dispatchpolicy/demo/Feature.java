package io.dispatchpolicy.demo;

import java.util.Locale;

/**
 * The playground's cards: each a feature, its job and policy ({@code pg-<id>}), what the policy says and
 * what clicking the card submits. The storm is not a card: it has a form of its own ({@link Storm}).
 */
public enum Feature {
    THROTTLE("Throttle", "5 jobs per 10 s per tenant (a token bucket, starting full).",
            "20 jobs of 0.5 s for tenant acme: 5 start at once, then one every 2 s; the rest wait with reason throttle."),
    CONCURRENCY("Concurrency", "At most 2 jobs of a tenant running at once.",
            "12 jobs of 3 s for tenant acme: two run at a time, the others wait with reason concurrency_full."),
    ADAPTIVE("Adaptive concurrency", "A per-tenant cap starting at 1 that grows while jobs start within 300 ms of admission and shrinks when they lag.",
            "20 jobs of 0.3 s for each of acme, globex and initech: watch each tenant's cap grow on the partition page."),
    FAIRNESS("Fairness", "4 jobs of all tenants at once, 4 admissions a tick, handed out by decayed admits (half-life 30 s).",
            "60 jobs of 1 s for whale, then 3 for each of four small tenants: the small ones take the next free slots, ahead of whale's backlog."),
    LANES("Capacity and lanes", "6 jobs of the policy at once; lane critical (weight 3, 2 slots guaranteed) and bulk (weight 1, the default).",
            "30 bulk jobs of 2 s for acme, then 6 critical ones for globex: critical gets its slots while bulk keeps the rest."),
    DEMOTION("Demotion", "Lanes default (weight 9) and slow (weight 1), capacity 4; a tenant submitting more than 10 a minute goes to slow.",
            "30 jobs of 1 s for noisy and 5 for quiet: noisy's last 20 are demoted to slow and quiet's jobs pass them."),
    PRIORITY("Priority", "One job of a tenant at a time; a higher priority goes first within the partition.",
            "6 jobs of 2 s with priority 0, then 2 with priority 10, for acme: the two urgent jobs run second and third."),
    DELAY("Delay", "No gate: a delayed job waits for its time only.",
            "3 jobs for acme, due in 30 s: staged and not due, then admitted together."),
    RETRIES("Retries and dead jobs", "A failed job is retried twice, 2 s apart, then dead.",
            "1 job that always fails, for acme: three executions, then it is in the Dead view, where it can be retried."),
    SCHEDULES("Schedules", "A declared schedule, pg-every-5-minutes, runs a job every five minutes through this policy.",
            "Runs the schedule now: one occurrence staged at once, beside the grid's next one."),
    SHARDING("Sharding", "Partitions spread over 4 shards by tenant; each node admits only the shards it owns.",
            "2 jobs of 1 s for each of 8 tenants: this node admits every shard (the dashboard's \"admits\" line). "
                    + "Set dispatch.shards to pg-shard-0 with jboss-cli and click again: the other shards' jobs wait, and the dashboard "
                    + "names each shard no node admits."),
    UNIQUENESS("Uniqueness", "A key makes a job unique while it is staged or running.",
            "The same order (key order-1001) submitted 5 times: one job staged, four answered DUPLICATE with its id."),
    DEADLINE("Deadline", "One job of a tenant at a time; a job not admitted by its deadline expires and never runs.",
            "A blocking job of 20 s, then a job with a deadline 10 s away, for acme: it is EXPIRED after 10 s, never run."),
    TIMEOUT("Timeout", "A job running longer than 3 s loses its slot at once and is asked to stop; one that goes on is interrupted.",
            "1 job of 10 s for acme that ignores a stop: after 3 s its slot is free; interrupted 2 s later, it ends, recorded "
                    + "FAILED with the reason (its page in the Jobs view says it timed out)."),
    STORM("Storm", "Adaptive concurrency (from 2) per tenant, fairness by decayed admits, 20 admissions a tick, 16 jobs at once.",
            "Many tenants, many jobs, over a time you choose: the storm form.");

    private final String title;
    private final String policy;
    private final String scenario;

    Feature(String title, String policy, String scenario) {
        this.title = title;
        this.policy = policy;
        this.scenario = scenario;
    }

    /** The card's id in forms and addresses: {@code throttle}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The job XML name, which is also the policy's name: {@code pg-throttle}. */
    public String job() {
        return "pg-" + id();
    }

    public String title() {
        return title;
    }

    /** What the policy declares, in words. */
    public String policy() {
        return policy;
    }

    /** What a click submits and what happens then. */
    public String scenario() {
        return scenario;
    }

    /** The job XML: one step running {@link PlaygroundBatchlet} with the job's {@code millis} and {@code fail}. */
    public String jobXml() {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <job id="%s" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                    <step id="run">
                        <batchlet ref="playgroundBatchlet">
                            <properties>
                                <property name="millis" value="#{jobParameters['millis']}"/>
                                <property name="fail" value="#{jobParameters['fail']}"/>
                            </properties>
                        </batchlet>
                    </step>
                </job>
                """.formatted(job());
    }

    /** The card with this id, or null. */
    public static Feature byId(String id) {
        for (Feature f : values()) {
            if (f.id().equals(id)) {
                return f;
            }
        }
        return null;
    }
}
