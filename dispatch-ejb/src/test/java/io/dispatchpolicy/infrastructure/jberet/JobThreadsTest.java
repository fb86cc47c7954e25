package io.dispatchpolicy.infrastructure.jberet;

import org.jberet.job.model.Job;
import org.jberet.job.model.JobParser;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch threads a job takes at its widest, from its job XML (issue 35, deliverable 2). */
class JobThreadsTest {

    @Test
    void aJobOfPlainStepsTakesOneThread() throws Exception {
        assertThat(threads(job("<step id='a' next='b'><batchlet ref='x'/></step><step id='b'><batchlet ref='x'/></step>"))).hasValue(1);
    }

    @Test
    void aPartitionedStepTakesItsPartitionsOrItsThreadsAtOnce() throws Exception {
        assertThat(threads(job(partitioned("partitions='3'")))).hasValue(4);
        assertThat(threads(job(partitioned("partitions='10' threads='4'")))).as("threads bound them").hasValue(5);
        assertThat(threads(job(partitioned("partitions='2' threads='8'")))).as("no more than the partitions").hasValue(3);
    }

    @Test
    void aPlanFromTheJobParametersIsReadFromTheSubmission() throws Exception {
        Properties p = new Properties();
        p.setProperty("n", "6");
        assertThat(threads(job(partitioned("partitions=\"#{jobParameters['n']}\"")), p)).hasValue(7);
        assertThat(threads(job(partitioned("partitions=\"#{jobParameters['m']}?:2;\"")))).as("its default").hasValue(3);
        assertThat(threads(job(partitioned("partitions=\"#{jobParameters['m']}\"")))).as("no value: unknown").isEmpty();
        assertThat(threads(job(partitioned("partitions=\"#{jobProperties['n']}\"")))).as("not read").isEmpty();
    }

    @Test
    void aSplitTakesAThreadPerFlowAndTheWidestPointCounts() throws Exception {
        String split = "<split id='s' next='last'>"
                + "<flow id='f1'>" + partitioned("partitions='3'").replace("id='p'", "id='p1'") + "</flow>"
                + "<flow id='f2'><step id='b'><batchlet ref='x'/></step></flow></split>"
                + partitioned("partitions='2'").replace("id='p'", "id='last'");
        // the split: flow 1 (its thread + 3 partitions) and flow 2 (its thread) beside the job's thread
        assertThat(threads(job(split))).hasValue(1 + (1 + 3) + 1);
    }

    @Test
    void aMapperDecidesAtRunTime() throws Exception {
        String mapped = "<step id='p'><batchlet ref='x'/><partition><mapper ref='m'/></partition></step>";
        assertThat(threads(job(mapped))).isEmpty();
    }

    private static String partitioned(String plan) {
        return "<step id='p'><batchlet ref='x'/><partition><plan " + plan + "/></partition></step>";
    }

    private static Job job(String body) throws Exception {
        String xml = "<job id='j' xmlns='https://jakarta.ee/xml/ns/jakartaee' version='2.0'>" + body + "</job>";
        return JobParser.parseJob(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), JobThreadsTest.class.getClassLoader(),
                null);
    }

    private static OptionalInt threads(Job job) {
        return threads(job, new Properties());
    }

    private static OptionalInt threads(Job job, Properties p) {
        return JobThreads.of(job, p);
    }
}
