package io.dispatchpolicy.infrastructure.wildfly;

import java.util.concurrent.CompletionStage;

/**
 * What the engine does when the server suspends and resumes, in WildFly's phases: {@code prepare}
 * when the suspend begins (before any other activity of the server is suspended), {@code suspend} after
 * every activity has prepared, {@code resume} when the server resumes. A stage that completes late
 * delays the rest of the server's suspend (HTTP, EJB, WildFly's batch jobs), never its resume.
 */
public interface SuspendListener {

    CompletionStage<Void> prepare();

    /** @param stopping the suspend that begins a {@code :shutdown} or {@code :reload} */
    CompletionStage<Void> suspend(boolean stopping);

    void resume();

    /**
     * The server's service container is stopping the engine's hook (a shutdown, or the deployment going
     * away): the stage completes when this node's jobs have ended, and until then WildFly's batch
     * configuration — with the job repository and the batch threads it requires — is not stopped, so a job
     * that is still ending can record its end.
     */
    CompletionStage<Void> stopping();
}
