package io.dispatchpolicy.console.audit;

/**
 * Every action the audit log records: those the console and the API offer ({@link #offered()}), with the least role it needs and, where JBeret has one, the
 * {@code BatchPermission} it corresponds to (start, stop, restart, abandon, read). The audit log names an
 * action by {@link #name()}.
 */
public enum OperatorAction {
    /** Jobs submitted from outside the application (the write API); the target is the job XML name. */
    JOB_SUBMIT(ConsoleRole.OPERATOR, "job", "submit jobs", "start"),
    JOB_STOP(ConsoleRole.OPERATOR, "job", "stop jobs", "stop"),
    JOB_RESTART(ConsoleRole.OPERATOR, "job", "restart jobs", "restart"),
    JOB_DISCARD(ConsoleRole.OPERATOR, "job", "discard jobs", "abandon"),
    /** A group cancelled (ADR 0052): its staged members discarded, its callbacks skipped; the target is the group id. */
    GROUP_CANCEL(ConsoleRole.OPERATOR, "group", "cancel groups", "stop"),
    DEAD_RETRY(ConsoleRole.OPERATOR, "job", "retry dead jobs", "restart"),
    DEAD_DISCARD(ConsoleRole.OPERATOR, "job", "discard dead jobs", "abandon"),
    PARTITION_FORCE_ADMIT(ConsoleRole.OPERATOR, "partition", "force-admit jobs", "start"),
    PARTITION_DRAIN(ConsoleRole.OPERATOR, "partition", "drain partitions", null),
    PARTITION_PAUSE(ConsoleRole.OPERATOR, "partition", "pause partitions", null),
    PARTITION_RESUME(ConsoleRole.OPERATOR, "partition", "resume partitions", null),
    PARTITION_OVERRIDE(ConsoleRole.OPERATOR, "partition", "override a partition's gates and lanes", null),
    /**
     * A running job paused its own partition (ADR 0033): recorded, not offered — the actor is the job
     * ("job:execution N"), which no permission check stands between.
     */
    PARTITION_PAUSED_BY_JOB(ConsoleRole.OPERATOR, "partition", "pause partitions", null, false),
    POLICY_PAUSE(ConsoleRole.OPERATOR, "policy", "pause policies", null),
    POLICY_RESUME(ConsoleRole.OPERATOR, "policy", "resume policies", null),
    POLICY_DRAIN(ConsoleRole.OPERATOR, "policy", "drain policies", null),
    /** A bulk action requested (ADR 0039): the target is its kind and filter; its jobs are not audited one by one. */
    BULK_ACTION(ConsoleRole.OPERATOR, "bulk", "run bulk actions", null),
    BULK_CANCEL(ConsoleRole.OPERATOR, "bulk", "cancel bulk actions", null),
    SCHEDULE_RUN_NOW(ConsoleRole.OPERATOR, "schedule", "run schedules now", "start"),
    SCHEDULE_CREATE(ConsoleRole.ADMIN, "schedule", "create schedules", null),
    SCHEDULE_EDIT(ConsoleRole.ADMIN, "schedule", "edit schedules", null),
    SCHEDULE_DELETE(ConsoleRole.ADMIN, "schedule", "delete schedules", null),
    SCHEDULE_ENABLE(ConsoleRole.ADMIN, "schedule", "enable schedules", null),
    SCHEDULE_DISABLE(ConsoleRole.ADMIN, "schedule", "disable schedules", null),
    SCHEDULE_SKIP(ConsoleRole.ADMIN, "schedule", "skip schedule runs", null),
    /** A calendar of excluded times created or changed in the console (ADR 0053); the target is its name. */
    CALENDAR_SAVE(ConsoleRole.ADMIN, "calendar", "change calendars", null),
    CALENDAR_DELETE(ConsoleRole.ADMIN, "calendar", "delete calendars", null);

    private final ConsoleRole role;
    private final String targetKind;
    private final String verb;
    private final String batchPermission;

    private final boolean offered;

    OperatorAction(ConsoleRole role, String targetKind, String verb, String batchPermission) {
        this(role, targetKind, verb, batchPermission, true);
    }

    OperatorAction(ConsoleRole role, String targetKind, String verb, String batchPermission, boolean offered) {
        this.role = role;
        this.targetKind = targetKind;
        this.verb = verb;
        this.batchPermission = batchPermission;
        this.offered = offered;
    }

    /** The actions the console and the API offer operators (each checked against the actor's roles); the rest are recorded only. */
    public static java.util.List<OperatorAction> offered() {
        return java.util.Arrays.stream(values()).filter(a -> a.offered).toList();
    }

    /** The least role that may do it. */
    public ConsoleRole role() {
        return role;
    }

    /** What it acts on, as the audit log names it: job, partition, policy, schedule. */
    public String targetKind() {
        return targetKind;
    }

    /** What it does, for messages ("Not allowed: only dispatch-operator may stop jobs"). */
    public String verb() {
        return verb;
    }

    /** JBeret's {@code BatchPermission} name it corresponds to, or null when JBeret has none. */
    public String batchPermission() {
        return batchPermission;
    }
}
