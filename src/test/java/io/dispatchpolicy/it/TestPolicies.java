package io.dispatchpolicy.it;

import io.dispatchpolicy.spi.Gate;
import io.dispatchpolicy.spi.FairnessMeasure;
import io.dispatchpolicy.spi.Lane;
import io.dispatchpolicy.spi.Limit;
import io.dispatchpolicy.spi.Policy;
import io.dispatchpolicy.spi.Retries;
import io.dispatchpolicy.spi.RetryDecision;
import io.dispatchpolicy.spi.RetryStrategy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The policies the system tests submit through. {@code it-open} is deliberately ungoverned. */
@ApplicationScoped
public class TestPolicies {

    @Produces
    Policy flow() {
        return Policy.named("it-flow")
                .governs("it-flow")
                .context(p -> Map.of("tenant", p.getProperty("tenant", ""), "plan", p.getProperty("plan", "basic")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .build();
    }

    @Produces
    Policy atomic() {
        return byTenantWith("it-atomic").build();
    }

    /** No budget, no capacity: small partitions are admitted together (ADR 0016). */
    @Produces
    Policy together() {
        return byTenantWith("it-together").build();
    }

    /** The history's test: admitted, completed and failed per minute. */
    @Produces
    Policy history() {
        return byTenantWith("it-history").build();
    }

    /** The history charts' browser test: only seeded minutes, no job ever runs. */
    @Produces
    Policy charted() {
        return byTenantWith("it-charted").build();
    }

    /** The Jobs view's test: jobs found by each key, and their lives. */
    @Produces
    Policy jobs() {
        return byTenantWith("it-jobs").build();
    }

    /** The metrics' test: admissions, waits and completions counted by policy. */
    @Produces
    Policy metrics() {
        return byTenantWith("it-metrics").build();
    }

    /** The metrics' test of denials and gauges: one job at a time per tenant. */
    @Produces
    Policy metricsCapped() {
        return byTenantWith("it-metrics-capped").gate(Gate.concurrency(1)).build();
    }

    /** No gate, no capacity: only the node's batch threads bound it (NodeThreadsIT). */
    @Produces
    Policy threads() {
        return byTenantWith("it-threads").build();
    }

    @Produces
    Policy concurrent() {
        return byTenantWith("it-concurrent").build();
    }

    @Produces
    Policy bulk() {
        return Policy.named("it-bulk")
                .governs("it-bulk.xml")
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .admissionBatchSize(500)
                .build();
    }

    @Produces
    Policy throttle() {
        return byTenantWith("it-throttle").gate(Gate.throttle(10, Duration.ofSeconds(60))).build();
    }

    @Produces
    Policy concurrency() {
        return byTenantWith("it-conc").gate(Gate.concurrency(5)).build();
    }

    @Produces
    Policy mixed() {
        return byTenantWith("it-mixed").gate(Gate.throttle(10, Duration.ofSeconds(60))).gate(Gate.concurrency(4)).build();
    }

    /** At most 4 in flight across all tenants, each tenant capped at 5: the policy's capacity is what binds. */
    @Produces
    Policy capacity() {
        return byTenantWith("it-capacity").gate(Gate.concurrency(5)).capacity(4).build();
    }

    /** Three weighted lanes sharing a capacity of 10. */
    @Produces
    Policy lanes() {
        return byTenantWith("it-lanes").capacity(10).lane("critical", 6).lane("default", 3).lane("bulk", 1)
                .defaultLane("default").build();
    }

    /** Lane a is guaranteed 3 of the 10 slots while it has work; b has the weight. */
    @Produces
    Policy lanesWithMinimum() {
        return byTenantWith("it-lanes-min").capacity(10).lane("a", 1, 3).lane("b", 9).build();
    }

    /** Lane a is guaranteed 4 of the 10 slots and lends at most 1 of them while idle (ADR 0047). */
    @Produces
    Policy lanesLending() {
        return byTenantWith("it-lanes-lend").capacity(10).lane(new Lane("a", 1, 4).lendingLimit(1)).lane("b", 9).build();
    }

    /** Two equal lanes of 10 slots; b borrows at most 2 beyond its 5 (ADR 0047). */
    @Produces
    Policy lanesBorrowing() {
        return byTenantWith("it-lanes-borrow").capacity(10).lane("a", 1).lane(new Lane("b", 1, 0).borrowingLimit(2)).build();
    }

    /** Fairness by usage (ADR 0048): capacity 5, partitions ordered by their decayed slot-seconds (half-life 10 s). */
    @Produces
    Policy fairByUsage() {
        return byTenantWith("it-usage").capacity(5).fairness(Duration.ofSeconds(10)).fairnessBy(FairnessMeasure.USAGE).build();
    }

    /** The same by admissions, to show the difference. */
    @Produces
    Policy fairByCount() {
        return byTenantWith("it-count").capacity(5).fairness(Duration.ofSeconds(10)).build();
    }

    /** A provider's limit shared by two policies: 5 per tenant, 8 in all (ADR 0049). */
    @Produces
    Limit crm() {
        return Limit.named("it-crm").perKey("tenant").concurrency(5).totalConcurrency(8).build();
    }

    @Produces
    Policy limitedExports() {
        return byTenantWith("it-limit-a").limit("it-crm").build();
    }

    @Produces
    Policy limitedSyncs() {
        return byTenantWith("it-limit-b").limit("it-crm").build();
    }

    /** A generous rate and a concurrency of one: the second refuses, the first must not be charged. */
    @Produces
    Limit rated() {
        return Limit.named("it-rated").totalThrottle(100, Duration.ofSeconds(1)).build();
    }

    @Produces
    Limit single() {
        return Limit.named("it-single").totalConcurrency(1).build();
    }

    @Produces
    Policy twoLimits() {
        return byTenantWith("it-limit-c").limit("it-rated").limit("it-single").build();
    }

    /** A failed job is retried once, at once, in a lane of its own. */
    @Produces
    Policy lanesForRetries() {
        return byTenantWith("it-lanes-retry").lane("main", 3).lane("retries", 1)
                .retry(Retries.fixed(Duration.ZERO).maxRetries(1).inLane("retries")).build();
    }

    /** Two lanes; a tenant's concurrency of 2 holds across both. */
    @Produces
    Policy lanesSharingGates() {
        return byTenantWith("it-lanes-gate").gate(Gate.concurrency(2)).lane("a", 1).lane("b", 1).build();
    }

    /** A tenant's 6th submission within 10 s goes to lane slow. */
    @Produces
    Policy demote() {
        return byTenantWith("it-demote").lane("default", 3).lane("slow", 1).demote(5, Duration.ofSeconds(10), "slow").build();
    }

    /**
     * Two rules, the last matching wins, counted at two resolutions (one-second and one-minute buckets); the
     * tenant is the account (none: not counted); demotion overrides a named lane.
     */
    @Produces
    Policy demoteTwoRules() {
        return byTenantAndAccount("it-demote2")
                .lane("default", 6).lane("slow", 3).lane("slower", 1)
                .demote(2, Duration.ofMinutes(1), "slow")
                .demote(4, Duration.ofMinutes(2), "slower")
                .demotionOverridesLane()
                .build();
    }

    /** One rule at one resolution; the tenant is the account (none: not counted). */
    @Produces
    Policy demoteByAccount() {
        return byTenantAndAccount("it-demote4")
                .lane("default", 1).lane("slow", 1)
                .demote(2, Duration.ofMinutes(1), "slow")
                .build();
    }

    @Produces
    Policy demoteConcurrently() {
        return byTenantWith("it-demote3").lane("default", 1).lane("slow", 1).demote(10, Duration.ofMinutes(1), "slow").build();
    }

    /** Retried at once, up to three times; one submission a minute before demotion. */
    @Produces
    Policy demoteRetries() {
        return byTenantWith("it-demote-retry").lane("default", 1).lane("slow", 1).demote(1, Duration.ofMinutes(1), "slow")
                .retry(Retries.fixed(Duration.ZERO).maxRetries(3)).build();
    }

    @Produces
    Policy adaptive() {
        return byTenantWith("it-adaptive").gate(Gate.adaptiveConcurrency(6, 1000)).build();
    }

    @Produces
    Policy twoThrottles() {
        return byTenantWith("it-two-throttles")
                .gate(Gate.throttle(10, Duration.ofSeconds(60)))
                .gate(Gate.throttle(15, Duration.ofHours(1)))
                .build();
    }

    @Produces
    Policy fair() {
        return byTenantWith("it-fair").build();
    }

    @Produces
    Policy poison() {
        return byTenantWith("it-poison").build();
    }

    @Produces
    Policy pause() {
        return byTenantWith("it-pause").build();
    }

    @Produces
    Policy capOfThree() {
        return byTenantWith("it-cap3").gate(Gate.concurrency(3).fullBackoff(Duration.ofMillis(50))).build();
    }

    /** Three of a tenant at a time, for the suspend test (SuspendIT). */
    @Produces
    Policy suspended() {
        return byTenantWith("it-suspend").gate(Gate.concurrency(3).fullBackoff(Duration.ofMillis(50))).build();
    }

    @Produces
    Policy order() {
        return byTenantWith("it-order").build();
    }

    /** One slot and a long full-backoff: only a freed slot's wake-up admits the next job soon. */
    @Produces
    Policy refill() {
        return byTenantWith("it-refill").gate(Gate.concurrency(1).fullBackoff(Duration.ofSeconds(60))).build();
    }

    @Produces
    Policy heal() {
        return byTenantWith("it-heal").build();
    }

    @Produces
    Policy crash() {
        return byTenantWith("it-crash").build();
    }

    @Produces
    Policy crashBypass() {
        return byTenantWith("it-crash-bypass").retryStrategy(RetryStrategy.BYPASS).build();
    }

    @Produces
    Policy retry() {
        return byTenantWith("it-retry").build();
    }

    @Produces
    Policy retryBypass() {
        return byTenantWith("it-retry-bypass").retryStrategy(RetryStrategy.BYPASS).build();
    }

    /** Strict priority: a job's {@code urgency} parameter is its priority unless the caller sets one. */
    @Produces
    Policy prioritized() {
        return Policy.named("it-prio")
                .governs("it-prio")
                .context(p -> Map.of("tenant", p.getProperty("tenant", ""), "urgency",
                        Integer.parseInt(p.getProperty("urgency", "0")), "headStart", Long.parseLong(p.getProperty("headStart", "0"))))
                .partitionBy(ctx -> ctx.get("tenant"))
                .priority(ctx -> ((Number) ctx.get("urgency")).intValue())
                // a job's head start in seconds, from its parameters: none when 0
                .priorityOffset(ctx -> ((Number) ctx.get("headStart")).longValue() == 0 ? null
                        : Duration.ofSeconds(((Number) ctx.get("headStart")).longValue()))
                .build();
    }

    /** Waiting jobs gain one priority a second, up to 3. */
    @Produces
    Policy aging() {
        return byTenantWith("it-aging").agePriority(Duration.ofSeconds(1), 1, 3).build();
    }

    /** Jobs submitted for later. */
    @Produces
    Policy later() {
        return byTenantWith("it-later").build();
    }

    /** Automatic retries: a second apart, two at most. */
    @Produces
    Policy autoRetry() {
        return byTenantWith("it-autoretry").retry(Retries.fixed(Duration.ofSeconds(1)).maxRetries(2)).build();
    }

    /** Run as the submitter (IdentityIT): one retry, a second later. */
    @Produces
    Policy identity() {
        return byTenantWith("it-identity").retry(Retries.fixed(Duration.ofSeconds(1)).maxRetries(1)).build();
    }

    /** A custom retry rule: a FATAL exit status stops at once; anything else is retried a second later. */
    @Produces
    Policy stopRetry() {
        return byTenantWith("it-stopretry").retry(Retries.custom((failed, retry) -> "FATAL".equals(failed.getExitStatus())
                ? RetryDecision.stop() : RetryDecision.after(Duration.ofSeconds(1))).maxRetries(5)).build();
    }

    /** No retry at all (maxRetries 0): a failed job is dead at once. */
    @Produces
    Policy deadNow() {
        return byTenantWith("it-deadnow").retry(Retries.fixed(Duration.ZERO).maxRetries(0)).build();
    }

    /** A chunk job retried at once, once. */
    @Produces
    Policy chunkRetry() {
        return byTenantWith("it-chunk-retry").retry(Retries.fixed(Duration.ZERO).maxRetries(1)).build();
    }

    /** A job's cost (CostIT, ADR 0035): a capacity of 10 slots; its job runs 3 partitions (cost 4). */
    @Produces
    Policy cost() {
        return byTenantWith("it-cost").capacity(10).build();
    }

    /** A job's cost drawn from a throttle (CostIT): 100 tokens a minute per tenant; its job costs 4. */
    @Produces
    Policy costThrottle() {
        return byTenantWith("it-cost-throttle").gate(Gate.throttle(100, Duration.ofMinutes(1))).build();
    }

    /**
     * Submission controls (SubmissionControlsIT, ADR 0036): jobs unique by their {@code order} parameter while staged,
     * running, or completed less than 2 s ago.
     */
    @Produces
    Policy unique() {
        return byTenantWith("it-unique").unique(io.dispatchpolicy.spi.KeyFunction.parameters("order"),
                io.dispatchpolicy.spi.Uniqueness.within(Duration.ofSeconds(2))).build();
    }

    /** Deadlines (SubmissionControlsIT): one job at a time per tenant, so a tenant's partition can be held full. */
    @Produces
    Policy deadline() {
        return byTenantWith("it-deadline").gate(Gate.concurrency(1)).build();
    }

    /** A calendar quota (QuotaIT): 10 a day per tenant, from midnight in the tenant's own zone (its {@code zone} parameter). */
    @Produces
    Policy quota() {
        return Policy.named("it-quota").governs("it-quota")
                .context(p -> Map.of("tenant", p.getProperty("tenant", ""), "zone", p.getProperty("zone", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.quota(10, io.dispatchpolicy.spi.QuotaPeriod.DAY).inZoneOf("zone"))
                .build();
    }

    /** Debounce (SubmissionControlsIT): a tenant's jobs debounced 2 s, never delayed more than 5 s. */
    @Produces
    Policy debounced() {
        return byTenantWith("it-debounce").debounce(io.dispatchpolicy.spi.KeyFunction.parameters("tenant"), Duration.ofSeconds(2),
                Duration.ofSeconds(5)).build();
    }

    /** A backlog cap (SubmissionControlsIT): 100 staged per tenant, the overflow refused (set live to the others). */
    @Produces
    Policy backlog() {
        return byTenantWith("it-backlog").backlogCap(100, io.dispatchpolicy.spi.BacklogCap.Overflow.REJECT).build();
    }

    /** The item throttle (ItemThrottleIT): 20 items a second per tenant, a bucket of 20. */
    @Produces
    Policy items() {
        return byTenantWith("it-items").itemThrottle(20, Duration.ofSeconds(1)).build();
    }

    /** A job that pauses its own partition (PartitionPauseIT): no gates. */
    @Produces
    Policy pauseSelf() {
        return byTenantWith("it-pause-self").build();
    }

    /** Stop from any node (StopAnywhereIT): no gates, no retries. */
    @Produces
    Policy stopAnywhere() {
        return byTenantWith("it-stop").build();
    }

    /** Execution timeouts (TimeoutIT): one slot per tenant, 3 s a run, one retry at once. */
    @Produces
    Policy timeout() {
        return byTenantWith("it-timeout").gate(Gate.concurrency(1)).timeout(Duration.ofSeconds(3))
                .retry(Retries.fixed(Duration.ZERO).maxRetries(1)).build();
    }

    /** A hung job's slot (TimeoutIT): one slot per tenant, 2 s a run, no retries. */
    @Produces
    Policy timeoutHung() {
        return Policy.named("it-timeout-hung").governs("it-timeout-hung", "it-timeout-quick")
                .context(p -> Map.of("tenant", p.getProperty("tenant", ""))).partitionBy(ctx -> ctx.get("tenant"))
                .gate(Gate.concurrency(1)).timeout(Duration.ofSeconds(2)).build();
    }

    /** The progress watchdog (TimeoutIT): a chunk step may go 2 s without a checkpoint; batchlets are not watched. */
    @Produces
    Policy timeoutStall() {
        return byTenantWith("it-timeout-stall").progressTimeout(Duration.ofSeconds(2)).build();
    }

    /** One slot, but retries go straight to JBeret (five seconds after the failure). */
    @Produces
    Policy bypassRetry() {
        return byTenantWith("it-bypass-retry").gate(Gate.concurrency(1)).retryStrategy(RetryStrategy.BYPASS)
                .retry(Retries.fixed(Duration.ofSeconds(5)).maxRetries(1)).build();
    }

    /** Three at a time per tenant, admitted by the node's own tick workers (ConcurrentTickIT). */
    @Produces
    Policy workers() {
        return byTenantWith("it-workers").gate(Gate.concurrency(3).fullBackoff(Duration.ofMillis(50))).build();
    }

    /** Sharded by the {@code shard} parameter, partitioned by tenant (ShardingIT). */
    @Produces
    Policy sharded() {
        return Policy.named("it-sharded").governs("it-sharded")
                .context(p -> {
                    Map<String, Object> context = new java.util.HashMap<>();
                    context.put("tenant", p.getProperty("tenant", ""));
                    context.put("shard", p.getProperty("shard"));
                    return context;
                })
                .partitionBy(ctx -> ctx.get("tenant"))
                .shardBy(ctx -> ctx.get("shard"))
                .build();
    }

    /** Not sharded: every node admits it, whatever its shards (ShardingIT). */
    @Produces
    Policy unsharded() {
        return byTenantWith("it-unsharded").build();
    }

    /** Jobs whose executions the retention prunes (RetentionIT); a failed one is dead at once. */
    @Produces
    Policy retention() {
        return byTenantWith("it-retention").retry(Retries.fixed(Duration.ZERO).maxRetries(0)).build();
    }

    /** Schedules' occurrences one at a time (ScheduleIT's catch-up runs its missed occurrences in sequence). */
    @Produces
    Policy scheduleSerial() {
        return byTenantWith("it-schedule-serial").gate(Gate.concurrency(1)).build();
    }

    /**
     * Bad input (BadInputIT): the priority function fails on an {@code urgency} that is not a whole number,
     * the tenant function on the account {@code !}; no retries, so a failed job stays FAILED for a restart.
     */
    @Produces
    Policy badInput() {
        return Policy.named("it-badin")
                .governs("it-badin")
                .context(p -> Map.of("tenant", p.getProperty("tenant", ""), "urgency", p.getProperty("urgency", "0"),
                        "account", p.getProperty("account", "")))
                .partitionBy(ctx -> ctx.get("tenant"))
                .priority(ctx -> Integer.parseInt((String) ctx.get("urgency")))
                .tenant(ctx -> {
                    if ("!".equals(ctx.get("account"))) {
                        throw new IllegalStateException("no such account");
                    }
                    return ctx.get("tenant");
                })
                .build();
    }

    /** Bad input (BadInputIT): two lanes sharing a capacity of 4, for bad lane values written live. */
    @Produces
    Policy badInputLanes() {
        return byTenantWith("it-badin-lanes").capacity(4).lane("main", 3).lane("side", 1).build();
    }

    /** A policy governing the job of the same name, one partition per {@code tenant} parameter. */
    /** Partitioned by the "tenant" parameter, counted for demotion by the "account" one (none: not counted). */
    private static Policy.Builder byTenantAndAccount(String name) {
        return Policy.named(name).governs(name)
                .context(p -> {
                    Map<String, Object> ctx = new HashMap<>();
                    ctx.put("tenant", p.getProperty("tenant", ""));
                    ctx.put("account", p.getProperty("account"));
                    return ctx;
                })
                .partitionBy(ctx -> ctx.get("tenant"))
                .tenant(ctx -> ctx.get("account"));
    }

    public static Policy.Builder byTenantWith(String name) {
        return Policy.named(name)
                .governs(name)
                .context(p -> Map.of("tenant", p.getProperty("tenant", "")))
                .partitionBy(ctx -> ctx.get("tenant"));
    }

    /** Context fails on demand; the partition key comes straight from a parameter that may be missing. */
    @Produces
    Policy checked() {
        return Policy.named("it-checked")
                .governs("it-checked")
                .context(p -> {
                    if (p.containsKey("explode")) {
                        throw new IllegalStateException("context exploded");
                    }
                    Map<String, Object> ctx = new HashMap<>();
                    ctx.put("tenant", p.getProperty("tenant"));
                    if (p.containsKey("weird")) {
                        ctx.put("weird", new Object());
                    }
                    return ctx;
                })
                .partitionBy(ctx -> ctx.get("tenant"))
                .build();
    }

    /** Continuations (ContinuationsIT): A retried once at once; B at most 2 per tenant; C one at a time in all. */
    @Produces
    Policy continuedA() {
        return byTenantWith("it-cont-a").retry(Retries.fixed(Duration.ZERO).maxRetries(1)).build();
    }

    @Produces
    Policy continuationB() {
        return byTenantWith("it-cont-b").gate(Gate.concurrency(2)).build();
    }

    @Produces
    Policy continuationC() {
        return byTenantWith("it-cont-c").capacity(1).build();
    }

    /** Groups (GroupsIT): members retried once at once; the callbacks' jobs one partition each. */
    @Produces
    Policy grouped() {
        return byTenantWith("it-group").retry(Retries.fixed(Duration.ZERO).maxRetries(1)).build();
    }

    @Produces
    Policy groupDone() {
        return byTenantWith("it-group-done").build();
    }

    @Produces
    Policy groupOk() {
        return byTenantWith("it-group-ok").build();
    }

    /** A continuation refused when its predecessor ends (ContinuationsIT): one staged job per tenant, more rejected. */
    @Produces
    Policy continuationCapped() {
        return byTenantWith("it-cont-capped").backlogCap(1, io.dispatchpolicy.spi.BacklogCap.Overflow.REJECT).build();
    }
}
