package io.dispatchpolicy.infrastructure.jberet;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.StepExecution;
import org.jberet.runtime.AbstractStepExecution;
import org.jberet.runtime.JobExecutionImpl;

/**
 * A failed execution as JBeret kept it in memory when its runner ended: the user it ran for, the job's
 * exit status, and the exception of its first failed step (JBeret records it on the step, not the job).
 */
public record FailedExecution(String user, String exitStatus, String error) {

    public static FailedExecution of(JobExecution execution) {
        String error = null;
        if (execution instanceof JobExecutionImpl impl) {
            for (StepExecution step : impl.getStepExecutions()) {
                if (step.getBatchStatus() == BatchStatus.FAILED) {
                    Exception e = step instanceof AbstractStepExecution s ? s.getException() : null;
                    error = "step " + step.getStepName() + ": " + (e == null ? "FAILED, exit status " + step.getExitStatus()
                            : describe(e));
                    break;
                }
            }
        }
        String user = execution instanceof JobExecutionImpl impl ? impl.getUser() : null;
        return new FailedExecution(user, execution.getExitStatus(), error == null ? "FAILED, exit status " + execution.getExitStatus() : error);
    }

    /** The exception and its causes, one line each, without stack frames. */
    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null && text.length() < 4000; t = t.getCause() == t ? null : t.getCause()) {
            if (!text.isEmpty()) {
                text.append("\ncaused by ");
            }
            text.append(t.getClass().getName());
            if (t.getMessage() != null) {
                text.append(": ").append(t.getMessage());
            }
        }
        return text.toString();
    }
}
