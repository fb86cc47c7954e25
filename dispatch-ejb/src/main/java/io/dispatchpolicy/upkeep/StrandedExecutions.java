package io.dispatchpolicy.upkeep;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.config.DispatchSettings.UngovernedRecovery;
import io.dispatchpolicy.infrastructure.jberet.JobRuntime;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import io.dispatchpolicy.node.ThisNode;
import jakarta.batch.operations.JobExecutionIsRunningException;
import jakarta.batch.operations.JobExecutionNotMostRecentException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Repairs executions of ungoverned jobs that a gone server left STARTING or STARTED in JBeret's tables, which
 * nothing ever ends and JBeret will not restart (jakartaee/batch #157), when {@code dispatch.recover-ungoverned}
 * says so (ADR 0032): {@code mark-failed} marks them FAILED, {@code restart} also restarts each once, on this
 * node, with its own parameters. Governed jobs are recovery's ({@link DefaultRecoveryService}). Runs with
 * recovery, on every node; each execution is marked by one node, and its restart made by that node (or, if it
 * dies first, by another).
 */
@ApplicationScoped
public class StrandedExecutions {

    private static final Logger LOG = Logger.getLogger(StrandedExecutions.class.getName());
    public static final int BATCH = 100;

    private static final Sql APPLICATION_NAME = Sql.of("SELECT current_setting('application_name', true)");

    @Inject
    DispatchSettings settings;

    @Inject
    StrandedRepository stranded;

    @Inject
    ThisNode node;

    @Inject
    JobRuntime runtime;

    @Inject
    Jdbc jdbc;

    /** Whether this server's connections say which server they are: checked once, when the setting is first on. */
    private volatile Boolean attributable;

    /** One pass; @return executions marked FAILED and restarts made. */
    public int pass() {
        UngovernedRecovery mode = settings.recoverUngoverned();
        if (mode == UngovernedRecovery.OFF || !attributable()) {
            return 0;
        }
        List<Stranded> marked = stranded.markFailed(node.id(), mode == UngovernedRecovery.RESTART,
                settings.inflightStaleAfter(), settings.livenessGrace(), BATCH);
        if (!marked.isEmpty()) {
            LOG.warning(() -> "Marked FAILED " + marked.size() + " execution(s) of ungoverned jobs whose server is gone"
                    + (mode == UngovernedRecovery.RESTART ? ", to be restarted here" : "") + ": " + marked.stream()
                    .map(s -> s.executionId() + " (" + s.nodeName() + ")").toList());
        }
        int restarted = 0;
        for (long executionId : stranded.owedRestarts(node.id(), settings.inflightStaleAfter(), settings.livenessGrace(), BATCH)) {
            if (restart(executionId)) {
                restarted++;
            }
            stranded.paid(executionId);
        }
        return marked.size() + restarted;
    }

    private boolean restart(long executionId) {
        try {
            long restart = runtime.restartStranded(executionId);
            LOG.info(() -> "Restarted execution " + executionId + " of an ungoverned job whose server is gone: execution " + restart);
            return true;
        } catch (JobExecutionNotMostRecentException | JobExecutionIsRunningException e) {
            // restarted already (a node that made the restart died before it could say so)
            LOG.fine(() -> "Execution " + executionId + " was restarted already: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "Execution " + executionId + " of an ungoverned job whose server is gone stays FAILED: "
                    + "it could not be restarted here (its job XML must be one the engine's module sees)");
        }
        return false;
    }

    /**
     * True when this server's connections carry {@code dispatch:<its node name>} as their application name (the
     * datasource's {@code ApplicationName}, as {@code dispatch.cli} sets it): otherwise the executions it creates
     * say nothing of their server, and no execution could be told apart from another server's — a WARNING, once,
     * and the recovery does nothing.
     */
    private boolean attributable() {
        Boolean known = attributable;
        if (known == null) {
            String name = jdbc.query(APPLICATION_NAME, Params.of(), rs -> rs.getString(1)).get(0);
            String expected = StrandedRepository.APPLICATION_NAME_PREFIX + node.name();
            known = expected.equals(name);
            if (!known) {
                LOG.warning(() -> DispatchSettings.RECOVER_UNGOVERNED + " is on, but this server's connections are named '" + name
                        + "', not '" + expected + "': set the datasource's connection property ApplicationName to it (dispatch.cli"
                        + " does); until then no stranded execution of an ungoverned job is recovered");
            }
            attributable = known;
        }
        return known;
    }
}
