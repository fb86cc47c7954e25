package io.dispatchpolicy.domain.model;

import io.dispatchpolicy.api.SubmissionRejectedException;

import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Job parameters that JBeret's repository can store and read back unchanged.
 *
 * <p>JBeret keeps parameters in {@code JOB_EXECUTION.JOBPARAMETERS VARCHAR(3000)} as
 * {@code key = value} lines. A longer text fails its INSERT at admission, long after the caller went
 * away, and a line break, a key containing '=' or a key with surrounding blanks silently corrupts the
 * parameters on read. So all of these are refused here, at submission, where the caller can still fix
 * them.
 */
public final class JobParameters {

    /** Width of JBeret's JOBPARAMETERS column. */
    public static final int MAX_STORED_CHARS = 3000;

    /** Parameter the engine adds to every admitted execution: the submission it came from. */
    public static final String SUBMISSION_ID = "dispatch.submissionId";

    /** Characters JBeret adds per parameter: " = " and a line break. */
    private static final int PER_LINE = 4;

    /** Room kept for {@link #SUBMISSION_ID}: its key, " = ", up to 19 digits and a line break. */
    static final int RESERVED_CHARS = SUBMISSION_ID.length() + 19 + PER_LINE;

    private final Map<String, String> values;

    private JobParameters(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /** Validates and copies; {@code null} means no parameters. */
    public static JobParameters of(Properties properties) {
        Map<String, String> values = new TreeMap<>();
        int chars = RESERVED_CHARS;
        if (properties != null) {
            for (String key : properties.stringPropertyNames()) {
                String value = properties.getProperty(key);
                check(key, value);
                values.put(key, value);
                chars += key.length() + value.length() + PER_LINE;
            }
            if (properties.size() != values.size()) {
                throw new SubmissionRejectedException("Job parameters must have String keys and values");
            }
        }
        if (chars > MAX_STORED_CHARS) {
            throw new SubmissionRejectedException("Job parameters take " + (chars - RESERVED_CHARS)
                    + " characters as JBeret stores them (key = value lines); the limit is "
                    + (MAX_STORED_CHARS - RESERVED_CHARS));
        }
        return new JobParameters(values);
    }

    /** Parameters read back from the staging table, already validated when they were staged. */
    public static JobParameters trusted(Map<String, String> values) {
        return new JobParameters(new TreeMap<>(values));
    }

    private static void check(String key, String value) {
        if (key.isBlank() || !key.equals(key.strip()) || key.indexOf('=') >= 0 || hasLineBreak(key)) {
            throw new SubmissionRejectedException("Job parameter name '" + printable(key)
                    + "' is invalid: it must be non-blank, without surrounding blanks, '=' or line breaks");
        }
        if (key.equals(SUBMISSION_ID)) {
            throw new SubmissionRejectedException("Job parameter name '" + SUBMISSION_ID + "' is reserved for the engine");
        }
        if (hasLineBreak(value)) {
            throw new SubmissionRejectedException("Job parameter '" + printable(key)
                    + "' contains a line break, which JBeret's repository cannot store");
        }
    }

    private static boolean hasLineBreak(String s) {
        return s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
    }

    private static String printable(String s) {
        String cut = s.length() > 60 ? s.substring(0, 60) + "…" : s;
        return cut.replace("\n", "\\n").replace("\r", "\\r");
    }

    public Map<String, String> asMap() {
        return values;
    }

    /** A fresh {@link Properties} with these values plus the submission id JBeret will store. */
    public Properties toProperties(long submissionId) {
        Properties p = toProperties();
        p.setProperty(SUBMISSION_ID, Long.toString(submissionId));
        return p;
    }

    public Properties toProperties() {
        Properties p = new Properties();
        p.putAll(values);
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobParameters other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
