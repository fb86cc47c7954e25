package io.dispatchpolicy.infrastructure.persistence;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import java.util.logging.Logger;

/**
 * Applies the Flyway migrations in {@code db/dispatch} when the application deploys, before any
 * other startup bean touches the tables ({@code @DependsOn("SchemaMigrator")}). Flyway manages its own
 * local transactions, so this runs outside JTA. A PostgreSQL advisory lock inside Flyway keeps two
 * nodes booting together from migrating twice.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SchemaMigrator {

    private static final Logger LOG = Logger.getLogger(SchemaMigrator.class.getName());

    @Inject
    Jdbc jdbc;

    @PostConstruct
    void migrate() {
        MigrateResult result = Flyway.configure(SchemaMigrator.class.getClassLoader())
                .dataSource(jdbc.dataSource())
                .schemas("dispatch")
                .createSchemas(true)
                .locations("classpath:db/dispatch")
                .load()
                .migrate();
        LOG.info(() -> "Dispatch schema at version " + result.targetSchemaVersion + " (" + result.migrationsExecuted
                + " migration(s) applied)");
    }
}
