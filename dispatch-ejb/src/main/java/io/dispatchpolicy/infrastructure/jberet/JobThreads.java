package io.dispatchpolicy.infrastructure.jberet;

import org.jberet.job.model.Flow;
import org.jberet.job.model.Job;
import org.jberet.job.model.JobElement;
import org.jberet.job.model.Partition;
import org.jberet.job.model.PartitionPlan;
import org.jberet.job.model.Split;
import org.jberet.job.model.Step;

import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The most batch threads a job takes at once, read from its job XML (issue 35 deliverable 2, the cost of a job): one
 * for the job, plus, at its widest point, a partitioned step's partitions running at once ({@code threads}, else
 * {@code partitions}) or a split's flows (each on a thread of its own, while the split's thread waits). A value
 * written as {@code #{jobParameters['n']}} (with an optional {@code ?:default;}) is read from the submission's
 * parameters. Empty when the XML does not say: a partition mapper decides at run time, or a value is an expression
 * this cannot read — the policy or the submission must then say what the job costs.
 */
public final class JobThreads {

    private static final Pattern JOB_PARAMETER = Pattern.compile(
            "#\\{jobParameters\\['([^']+)'\\]\\}(?:\\?:([^;]*);)?");

    private JobThreads() {
    }

    /** The threads the job takes at its widest; empty when its job XML cannot tell. */
    public static OptionalInt of(Job job, Properties parameters) {
        try {
            return OptionalInt.of(1 + widest(job.getJobElements(), parameters));
        } catch (Unknown e) {
            return OptionalInt.empty();
        }
    }

    /** Threads beyond the one running them that these elements, run one after another, take at their widest. */
    private static int widest(List<JobElement> elements, Properties parameters) {
        int widest = 0;
        for (JobElement element : elements) {
            widest = Math.max(widest, extra(element, parameters));
        }
        return widest;
    }

    private static int extra(JobElement element, Properties parameters) {
        if (element instanceof Step step && step.getPartition() != null) {
            Partition partition = step.getPartition();
            PartitionPlan plan = partition.getPlan();
            if (partition.getMapper() != null || plan == null) {
                throw new Unknown();
            }
            int partitions = number(plan.getPartitions(), 1, parameters);
            int threads = number(plan.getThreads(), partitions, parameters);
            return Math.max(1, Math.min(partitions, threads));
        }
        if (element instanceof Flow flow) {
            return widest(flow.getJobElements(), parameters);
        }
        if (element instanceof Split split) {
            int flows = 0;
            for (Flow flow : split.getFlows()) {
                flows += 1 + widest(flow.getJobElements(), parameters);
            }
            return flows;
        }
        return 0; // a step without partitions, a decision
    }

    /** A plan's attribute: absent → {@code absent}; a whole number; or a job parameter (with its default). */
    private static int number(String text, int absent, Properties parameters) {
        if (text == null || text.isBlank()) {
            return absent;
        }
        String value = text.strip();
        Matcher m = JOB_PARAMETER.matcher(value);
        if (m.matches()) {
            value = parameters.getProperty(m.group(1), m.group(2));
            if (value == null) {
                throw new Unknown();
            }
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n < 1) {
                throw new Unknown();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new Unknown();
        }
    }

    /** The job XML does not say. */
    private static final class Unknown extends RuntimeException {
        Unknown() {
            super(null, null, false, false);
        }
    }
}
