package io.dispatchpolicy.infrastructure.jberet;

import io.dispatchpolicy.config.DispatchSettings;
import io.dispatchpolicy.infrastructure.persistence.Jdbc;
import io.dispatchpolicy.infrastructure.persistence.Params;
import io.dispatchpolicy.infrastructure.persistence.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jberet.repository.JobRepository;

/**
 * Refuses to start the engine on a server whose JBeret job repository is not a JDBC repository in
 * the engine's database. Atomic admission rests on it (ADR 0001): with JBeret's in-memory
 * repository, or one on another datasource, a crash could lose or repeat jobs silently. An adopter's
 * server is configured by hand or by our CLI script, so this is the boundary where a mistake there
 * gets a clear error instead of a subtle one.
 */
@ApplicationScoped
public class JobRepositoryCheck {

    // JBeret's DDL creates JOB_EXECUTION unquoted, so PostgreSQL stores it in lower case.
    private static final Sql JBERET_TABLES = Sql.of("SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'job_execution'");

    @Inject
    JobRuntime runtime;

    @Inject
    Jdbc jdbc;

    @Inject
    DispatchSettings settings;

    public void verify() {
        JobRepository repository = runtime.environment().getJobRepository();
        // WildFly hands out a service that delegates to the configured repository (for a JDBC one,
        // JdbcJobRepositoryService), so the type cannot be tested directly; the in-memory kinds say so
        // in their names, and a JDBC one on another datasource leaves our database without its tables.
        if (repository.getClass().getName().contains("InMemory")) {
            throw new IllegalStateException(problem("is in memory (" + repository.getClass().getName() + ")"));
        }
        long tables = jdbc.query(JBERET_TABLES, Params.of(), rs -> rs.getLong(1)).get(0);
        if (tables == 0) {
            throw new IllegalStateException(problem("keeps its tables in another database than " + settings.datasource()));
        }
    }

    private String problem(String what) {
        return "JBeret's job repository " + what + ". The engine needs the batch-jberet subsystem's default job "
                + "repository to be a JDBC repository on the datasource " + DispatchSettings.DATASOURCE + " names ("
                + settings.datasource() + "), so that admission and JBeret's INSERTs commit in one transaction. "
                + "wildfly-config/configure.cli sets this up (the guide: \"Getting started\").";
    }
}
