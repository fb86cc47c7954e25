package io.dispatchpolicy.spi;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A declared admission policy: which job XMLs it governs, how a job's parameters become a context,
 * and which partition of that context each job belongs to.
 *
 * <p>Declare one as a CDI producer in any bean archive the engine can see (the engine's own EJB jar,
 * another EJB jar of the same EAR, or an EAR library):
 * <pre>{@code
 * @Produces
 * Policy reports() {
 *     return Policy.named("reports")
 *             .governs("tenant-report")
 *             .context(params -> Map.of("tenant", params.getProperty("tenant")))
 *             .partitionBy(ctx -> ctx.get("tenant"))
 *             .build();
 * }
 * }</pre>
 */
public final class Policy {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    private final String name;
    private final Set<String> jobNames;
    private final ContextFunction context;
    private final PartitionFunction partitionBy;
    private final Integer admissionBatchSize;

    private Policy(Builder b) {
        this.name = b.name;
        this.jobNames = Collections.unmodifiableSet(new LinkedHashSet<>(b.jobNames));
        this.context = b.context;
        this.partitionBy = b.partitionBy;
        this.admissionBatchSize = b.admissionBatchSize;
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** Job XML names (without {@code .xml}) this policy governs. */
    public Set<String> jobNames() {
        return jobNames;
    }

    /** Per-policy override of {@code dispatch.admission-batch-size}. */
    public OptionalInt admissionBatchSize() {
        return admissionBatchSize == null ? OptionalInt.empty() : OptionalInt.of(admissionBatchSize);
    }

    public ContextFunction contextFunction() {
        return context;
    }

    public PartitionFunction partitionFunction() {
        return partitionBy;
    }

    /** Strips a trailing {@code .xml}, the one spelling difference Jakarta Batch allows in job names. */
    public static String jobName(String jobXmlName) {
        return jobXmlName != null && jobXmlName.endsWith(".xml")
                ? jobXmlName.substring(0, jobXmlName.length() - 4) : jobXmlName;
    }

    @Override
    public String toString() {
        return "Policy[" + name + " governs " + jobNames + "]";
    }

    public static final class Builder {
        private final String name;
        private final Set<String> jobNames = new LinkedHashSet<>();
        private ContextFunction context = Builder::allParameters;
        private PartitionFunction partitionBy;
        private Integer admissionBatchSize;

        private Builder(String name) {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new PolicyDeclarationException("Policy name '" + name
                        + "' is invalid: use 1-63 letters, digits, '_', '.' or '-', starting with a letter or digit");
            }
            this.name = name;
        }

        /** Job XML names this policy governs; each may be governed by one policy only. */
        public Builder governs(String... jobXmlNames) {
            for (String job : jobXmlNames) {
                if (job == null || job.isBlank()) {
                    throw new PolicyDeclarationException("Policy '" + name + "' governs a null or blank job name");
                }
                jobNames.add(jobName(job.strip()));
            }
            return this;
        }

        /** Context function; the default exposes every job parameter as a string. */
        public Builder context(ContextFunction context) {
            this.context = Objects.requireNonNull(context, "context");
            return this;
        }

        /** Required: the partition every gate of this policy enforces against. */
        public Builder partitionBy(PartitionFunction partitionBy) {
            this.partitionBy = Objects.requireNonNull(partitionBy, "partitionBy");
            return this;
        }

        /** Caps how many jobs of one partition are admitted in one tick iteration. */
        public Builder admissionBatchSize(int size) {
            if (size < 1) {
                throw new PolicyDeclarationException("Policy '" + name + "': admissionBatchSize must be >= 1, was " + size);
            }
            this.admissionBatchSize = size;
            return this;
        }

        public Policy build() {
            if (jobNames.isEmpty()) {
                throw new PolicyDeclarationException("Policy '" + name + "' governs no job: call governs(...)");
            }
            if (partitionBy == null) {
                throw new PolicyDeclarationException("Policy '" + name + "' has no partitionBy: it is required");
            }
            return new Policy(this);
        }

        private static Map<String, ?> allParameters(Properties parameters) {
            Map<String, String> all = new TreeMap<>();
            for (String key : parameters.stringPropertyNames()) {
                all.put(key, parameters.getProperty(key));
            }
            return all;
        }
    }
}
