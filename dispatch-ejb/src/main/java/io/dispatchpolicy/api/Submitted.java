package io.dispatchpolicy.api;

/**
 * What became of one job of a submission call ({@link DispatchOperator#submitEach}).
 *
 * @param submissionId the job's submission id; for a duplicate or a debounced job, the id of the submission
 *                     that absorbed it; for an ungoverned job, its execution id
 * @param outcome      what the call did with it
 */
public record Submitted(long submissionId, Outcome outcome) {

    public enum Outcome {
        /** staged under a new submission id */
        STAGED,
        /** a duplicate of a job its uniqueness key names (staged, running, or completed within the window): nothing staged */
        DUPLICATE,
        /** debounced into the staged job of its debounce key: that job took its parameters and was pushed back */
        DEBOUNCED,
        /** ungoverned: started at once */
        STARTED
    }
}
