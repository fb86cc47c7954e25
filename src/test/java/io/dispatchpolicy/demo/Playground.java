package io.dispatchpolicy.demo;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.DispatchSchedules;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * What each playground card submits (see {@link Feature#scenario()}), through the public API only, as an
 * application would. Each card's jobs go to its own policy and, unless it says otherwise, tenant
 * {@code acme}; clicking again adds another round to the same partitions.
 */
@ApplicationScoped
public class Playground {

    @Inject
    DispatchOperator dispatch;

    @Inject
    DispatchSchedules schedules;

    /** Runs the card's scenario; returns what was submitted, in one sentence. */
    public String run(Feature card) {
        return switch (card) {
            case THROTTLE -> jobs(card, "acme", 20, 500);
            case CONCURRENCY -> jobs(card, "acme", 12, 3000);
            case ADAPTIVE -> jobs(card, "acme", 20, 300) + " " + jobs(card, "globex", 20, 300) + " "
                    + jobs(card, "initech", 20, 300);
            case FAIRNESS -> {
                StringBuilder said = new StringBuilder(jobs(card, "whale", 60, 1000));
                for (String minnow : List.of("minnow-1", "minnow-2", "minnow-3", "minnow-4")) {
                    said.append(' ').append(jobs(card, minnow, 3, 1000));
                }
                yield said.toString();
            }
            case LANES -> jobs(card, "acme", 30, 2000) + " " + jobs(card, "globex", 6, 2000, "lane critical", SubmitOption.lane("critical"));
            case DEMOTION -> jobs(card, "noisy", 30, 1000) + " " + jobs(card, "quiet", 5, 1000);
            case PRIORITY -> jobs(card, "acme", 6, 2000) + " " + jobs(card, "acme", 2, 2000, "priority 10", SubmitOption.priority(10));
            case DELAY -> jobs(card, "acme", 3, 500, "due in 30 s", SubmitOption.delay(Duration.ofSeconds(30)));
            case RETRIES -> {
                Properties p = parameters("acme", 200);
                p.setProperty("fail", "true");
                yield "Submitted 1 " + card.job() + " job that fails, for acme: submission " + dispatch.submit(card.job(), p) + ".";
            }
            case SCHEDULES -> "Ran schedule " + PlaygroundPolicies.SCHEDULE + " now: submission "
                    + schedules.runNow(PlaygroundPolicies.SCHEDULE) + ".";
            case SHARDING -> {
                StringBuilder said = new StringBuilder();
                for (int t = 1; t <= 8; t++) {
                    said.append(t == 1 ? "" : " ").append(jobs(card, "tenant-" + t, 2, 1000));
                }
                yield said.toString();
            }
            case UNIQUENESS -> {
                List<Properties> five = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    Properties p = parameters("acme", 5000);
                    p.setProperty("order", "1001");
                    five.add(p);
                }
                List<Submitted> each = dispatch.submitEach(card.job(), five, SubmitOption.unique("order-1001"));
                Map<Submitted.Outcome, Long> outcomes = each.stream().collect(Collectors.groupingBy(Submitted::outcome,
                        () -> new EnumMap<>(Submitted.Outcome.class), Collectors.counting()));
                yield "Submitted order 1001 five times for acme: " + outcomes.entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "))
                        + " (submission " + each.get(0).submissionId() + ").";
            }
            case DEADLINE -> jobs(card, "acme", 1, 20_000) + " " + jobs(card, "acme", 1, 500, "deadline in 10 s",
                    SubmitOption.deadline(Instant.now().plusSeconds(10)));
            case TIMEOUT -> jobs(card, "acme", 1, 10_000);
            case STORM -> throw new IllegalArgumentException("the storm has a form of its own");
        };
    }

    private String jobs(Feature card, String tenant, int count, int millis) {
        return jobs(card, tenant, count, millis, null);
    }

    private String jobs(Feature card, String tenant, int count, int millis, String note, SubmitOption... options) {
        List<Properties> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(parameters(tenant, millis));
        }
        long[] ids = dispatch.submitAll(card.job(), all, options);
        return "Submitted " + count + " " + card.job() + (count == 1 ? " job" : " jobs") + " of " + seconds(millis)
                + " for " + tenant + (note == null ? "" : " (" + note + ")")
                + (count == 1 ? ": submission " + ids[0] : ": submissions " + ids[0] + "–" + ids[ids.length - 1]) + ".";
    }

    static Properties parameters(String tenant, int millis) {
        Properties p = new Properties();
        p.setProperty("tenant", tenant);
        p.setProperty("millis", Integer.toString(millis));
        return p;
    }

    private static String seconds(int millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis / 1000.0 + " s";
    }
}
