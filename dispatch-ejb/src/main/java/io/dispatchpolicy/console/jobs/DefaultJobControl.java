package io.dispatchpolicy.console.jobs;

import io.dispatchpolicy.api.DispatchOperator;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.api.Continuation;
import io.dispatchpolicy.api.SubmitOption;
import io.dispatchpolicy.api.Submitted;
import io.dispatchpolicy.console.audit.Actor;
import io.dispatchpolicy.console.audit.Audited;
import io.dispatchpolicy.console.audit.OperatorAction;
import io.dispatchpolicy.infrastructure.jberet.BatchPermissionCheck;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The Jobs view's and the API's calls: finds jobs, reads their lives and acts on them through
 * {@link JobActions}, submits through {@code DispatchOperator}; each action checked against the actor's roles
 * and audited.
 */
@Stateless
public class DefaultJobControl implements JobControl {

    @Inject
    JobsRepository jobs;

    @Inject
    JobActions actions;

    @Inject
    Audited audited;

    @Inject
    io.dispatchpolicy.follow.GroupRepository groupRepository;

    @Inject
    io.dispatchpolicy.follow.Groups groups;

    @Inject
    BatchPermissionCheck permission;

    @Inject
    DispatchOperator operator;

    @Override
    public java.util.Map<String, Long> stateCounts() {
        return jobs.stateCounts();
    }

    @Override
    public List<JobRow> find(JobQuery query) {
        return jobs.find(query);
    }

    @Override
    public Optional<JobLife> life(long submissionId) {
        return actions.life(submissionId);
    }

    @Override
    public List<SubmittedJob> submit(SubmitRequest request, Actor actor) {
        String target = request.jobName() == null ? "(none)" : request.jobName();
        return audited.act(actor, OperatorAction.JOB_SUBMIT, target, () -> submit(request), DefaultJobControl::outcomes);
    }

    private List<SubmittedJob> submit(SubmitRequest request) {
        if (request.jobName() == null || request.jobName().isBlank()) {
            throw new JobRequestRefused("job", "job is required: the job XML name to start");
        }
        if (request.parameters().isEmpty()) {
            throw new JobRequestRefused("parameters", "parameters is required: one object of job parameters per job ({} for none)");
        }
        if (request.parameters().size() > SubmitRequest.MAX_JOBS) {
            throw new JobRequestRefused("parameters", "one call submits at most " + SubmitRequest.MAX_JOBS + " jobs, this one "
                    + request.parameters().size() + ": split it (each call is atomic)");
        }
        SubmitOption[] options = options(request);
        List<Properties> parameters = new java.util.ArrayList<>(request.parameters().size());
        for (java.util.Map<String, String> p : request.parameters()) {
            Properties properties = new Properties();
            if (p != null) {
                properties.putAll(p);
            }
            parameters.add(properties);
        }
        try {
            return operator.submitEach(request.jobName(), parameters, options).stream()
                    .map(s -> new SubmittedJob(s.submissionId(), s.outcome().name())).toList();
        } catch (SubmissionRejectedException e) {
            // a backlog cap's refusal is the partition's state, not the request's form (the overflow strategy "reject")
            throw e.getMessage() != null && e.getMessage().contains("backlog cap") ? JobRequestRefused.conflict(e.getMessage())
                    : new JobRequestRefused(fieldOf(e.getMessage()), e.getMessage());
        } catch (jakarta.batch.operations.JobStartException e) {
            // an ungoverned job started at once, as JobOperator.start does: JBeret's refusal (no such job XML)
            throw new JobRequestRefused("job", "Job '" + request.jobName() + "' could not be started: " + e.getMessage());
        }
    }

    /** What the audit log says a submission did: how many of each outcome, and the first id. */
    private static String outcomes(List<SubmittedJob> submitted) {
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        submitted.forEach(s -> counts.merge(s.outcome(), 1L, Long::sum));
        return counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().toLowerCase(java.util.Locale.ROOT))
                .collect(java.util.stream.Collectors.joining(", ")) + (submitted.isEmpty() ? "" : "; first " + submitted.get(0).id());
    }

    /** Each option of the request as the application would give it; a bad one refused naming its field. */
    private static SubmitOption[] options(SubmitRequest r) {
        return options(r, "").toArray(SubmitOption[]::new);
    }

    /** The request's options, its continuations as {@code SubmitOption.then}; fields named under {@code prefix}. */
    private static List<SubmitOption> options(SubmitRequest r, String prefix) {
        List<SubmitOption> options = own(r, prefix);
        for (int i = 0; i < r.then().size(); i++) {
            String field = prefix + "then[" + i + "]";
            Continuation c = continuation(r.then().get(i), field);
            option(options, field, () -> SubmitOption.then(c));
        }
        return options;
    }

    /** A continuation of the write API as the application would build it. */
    private static Continuation continuation(SubmitRequest.Then then, String field) {
        SubmitRequest r = then.job();
        if (r == null || r.jobName() == null || r.jobName().isBlank()) {
            throw new JobRequestRefused(field + ".job", field + ".job is required: the job XML name of the continuation");
        }
        if (r.parameters().size() != 1) {
            throw new JobRequestRefused(field + ".parameters", field + ".parameters is one object of job parameters");
        }
        Properties p = new Properties();
        if (r.parameters().get(0) != null) {
            p.putAll(r.parameters().get(0));
        }
        SubmitOption[] own = own(r, field + ".").toArray(SubmitOption[]::new);
        Continuation c;
        try {
            c = switch (then.on() == null ? "" : then.on().strip().toLowerCase(java.util.Locale.ROOT)) {
                case "success" -> Continuation.onSuccess(r.jobName(), p, own);
                case "failure" -> Continuation.onFailure(r.jobName(), p, own);
                case "any" -> Continuation.onAnyEnd(r.jobName(), p, own);
                default -> throw new JobRequestRefused(field + ".on", field + ".on must be success, failure or any, was "
                        + (then.on() == null ? "missing" : "'" + then.on() + "'"));
            };
            for (int i = 0; i < r.then().size(); i++) {
                c = c.then(continuation(r.then().get(i), field + ".then[" + i + "]"));
            }
        } catch (SubmissionRejectedException e) {
            throw new JobRequestRefused(field, e.getMessage());
        }
        return c;
    }

    /** The request's own options, without its continuations. */
    private static List<SubmitOption> own(SubmitRequest r, String prefix) {
        List<SubmitOption> options = new java.util.ArrayList<>();
        option(options, prefix + "priority", r.priority() == null ? null : () -> SubmitOption.priority(r.priority()));
        option(options, prefix + "priorityOffset", r.priorityOffset() == null ? null : () -> SubmitOption.priorityOffset(r.priorityOffset()));
        option(options, prefix + "delay", r.delay() == null ? null : () -> SubmitOption.delay(r.delay()));
        option(options, prefix + "at", r.at() == null ? null : () -> SubmitOption.at(r.at()));
        option(options, prefix + "lane", r.lane() == null ? null : () -> SubmitOption.lane(r.lane()));
        option(options, prefix + "cost", r.cost() == null ? null : () -> SubmitOption.cost(r.cost()));
        option(options, prefix + "timeout", r.timeout() == null ? null : () -> SubmitOption.timeout(r.timeout()));
        option(options, prefix + "progressTimeout", r.progressTimeout() == null ? null : () -> SubmitOption.progressTimeout(r.progressTimeout()));
        option(options, prefix + "deadline", r.deadline() == null ? null : () -> SubmitOption.deadline(r.deadline()));
        option(options, prefix + "expireAfter", r.expireAfter() == null ? null : () -> SubmitOption.expireAfter(r.expireAfter()));
        if (r.uniqueKey() != null || r.uniqueWindow() != null || r.uniqueCovers() != null) {
            option(options, prefix + "unique", () -> {
                try {
                    io.dispatchpolicy.spi.Uniqueness uniqueness = r.uniqueCovers() == null
                            ? (r.uniqueWindow() == null ? io.dispatchpolicy.spi.Uniqueness.WHILE_LIVE
                            : io.dispatchpolicy.spi.Uniqueness.within(r.uniqueWindow()))
                            : new io.dispatchpolicy.spi.Uniqueness(r.uniqueWindow(), r.uniqueCovers());
                    return SubmitOption.unique(r.uniqueKey(), uniqueness);
                } catch (IllegalArgumentException e) {
                    throw new SubmissionRejectedException("SubmitOption.unique: " + e.getMessage());
                }
            });
        }
        if (r.debounceKey() != null || r.debouncePeriod() != null || r.debounceMaxWait() != null) {
            option(options, prefix + "debounce", () -> SubmitOption.debounce(r.debounceKey(), r.debouncePeriod(), r.debounceMaxWait()));
        }
        return options;
    }

    private static void option(List<SubmitOption> options, String field, java.util.function.Supplier<SubmitOption> make) {
        if (make == null) {
            return;
        }
        try {
            options.add(make.get());
        } catch (SubmissionRejectedException | IllegalArgumentException | NullPointerException e) {
            throw new JobRequestRefused(field, e.getMessage());
        }
    }

    /**
     * The request field a submission's refusal is about, read from the message the engine gives an application
     * (each check names its option or subject first); null when it is about the call as a whole (none found).
     */
    static String fieldOf(String message) {
        String m = message == null ? "" : message;
        if (m.startsWith("Continuation") || m.contains("cannot carry continuations")) {
            return "then"; // whatever refused it, it is about a continuation (the message names which)
        }
        java.util.regex.Matcher option = java.util.regex.Pattern.compile("SubmitOption\\.(\\w+)").matcher(m);
        if (option.find()) {
            return option.group(1);
        }
        if (m.startsWith("A job is either unique or debounced")) {
            return "debounce";
        }
        if (m.startsWith("A job can be submitted at most")) {
            return "delay";
        }
        if (m.startsWith("Unknown lane")) {
            return "lane";
        }
        if (m.startsWith("Job parameter")) {
            return "parameters";
        }
        if (m.startsWith("Unknown job XML name") || m.startsWith("Job XML name") || m.startsWith("Job '")) {
            return "job";
        }
        // a policy's own functions (partitionBy, shardBy, cost, uniqueness) read the job's parameters
        return m.startsWith("Policy '") ? "parameters" : null;
    }

    @Override
    public String stop(long submissionId, Actor actor) {
        return act(submissionId, actor, OperatorAction.JOB_STOP, actions::stop);
    }

    @Override
    public String restart(long submissionId, Actor actor) {
        return act(submissionId, actor, OperatorAction.JOB_RESTART, id -> actions.restart(id, permission.authorize("restart")));
    }

    @Override
    public String discard(long submissionId, Actor actor) {
        return act(submissionId, actor, OperatorAction.JOB_DISCARD, actions::discard);
    }

    /** Audited with the job's state and latest execution status before, and the answer after. */
    private String act(long submissionId, Actor actor, OperatorAction action, java.util.function.LongFunction<String> work) {
        return audited.act(actor, action, String.valueOf(submissionId), () -> life(submissionId).map(l -> l.job().state()
                + (l.latest() == null ? "" : ", execution " + l.latest().executionId() + " " + l.latest().batchStatus()))
                .orElse(null), () -> work.apply(submissionId), answer -> answer);
    }


    @Override
    public Optional<io.dispatchpolicy.api.GroupStatus> group(long groupId) {
        return groupRepository.status(groupId);
    }

    @Override
    public String cancelGroup(long groupId, Actor actor) {
        return audited.act(actor, OperatorAction.GROUP_CANCEL, String.valueOf(groupId),
                () -> groupRepository.status(groupId).map(g -> g.total() + " members: " + g.staged() + " staged, " + g.running()
                        + " running, " + g.ended() + " ended" + (g.cancelledAt() == null ? "" : ", cancelled")).orElse(null),
                () -> {
                    if (groupRepository.cancelled(groupId).isEmpty()) {
                        throw JobRequestRefused.missing("No group " + groupId + " (never submitted, or removed after its retention)");
                    }
                    int discarded = groups.cancel(groupId, actor.name());
                    return "Group " + groupId + " cancelled: " + discarded + " staged member" + (discarded == 1 ? "" : "s")
                            + " discarded; running ones go on; no callback will run.";
                }, answer -> answer);
    }
}
