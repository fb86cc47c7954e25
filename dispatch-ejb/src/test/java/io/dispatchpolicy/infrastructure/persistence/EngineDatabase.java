package io.dispatchpolicy.infrastructure.persistence;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * An embedded PostgreSQL with the engine's schema and JBeret's tables (from JBeret's own DDL, as its
 * repository creates them on first use), for engine tests that need only the database: no WildFly, no
 * JTA, started once per test JVM in a few seconds (the system tests' server is the same zonky build).
 * Each test works on rows of its own (its own policy names), so tests share it.
 */
public final class EngineDatabase {

    private static EmbeddedPostgres postgres;
    private static Jdbc jdbc;

    private EngineDatabase() {
    }

    /** The database, migrated as a deployment migrates it ({@link SchemaMigrator}'s Flyway settings). */
    public static synchronized Jdbc jdbc() {
        if (jdbc == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start embedded PostgreSQL", e);
            }
            DataSource dataSource = postgres.getPostgresDatabase();
            Flyway.configure(SchemaMigrator.class.getClassLoader()).dataSource(dataSource).schemas("dispatch").createSchemas(true)
                    .locations("classpath:db/dispatch").load().migrate();
            jdbc = Jdbc.over(dataSource);
            jberetTables(jdbc);
            Runtime.getRuntime().addShutdownHook(new Thread(EngineDatabase::stop, "engine-database-stop"));
        }
        return jdbc;
    }

    /** JBeret's PostgreSQL DDL from its jar, statements separated by {@code !!} as its repository reads them. */
    private static void jberetTables(Jdbc jdbc) {
        try (java.io.InputStream ddl = org.jberet.repository.JdbcRepository.class.getClassLoader()
                .getResourceAsStream("sql/jberet-postgresql.ddl")) {
            for (String statement : new String(ddl.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("!!")) {
                if (!statement.isBlank()) {
                    jdbc.update(statement.strip(), (c, st) -> { });
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read JBeret's DDL", e);
        }
    }

    private static synchronized void stop() {
        try {
            postgres.close();
        } catch (IOException ignored) {
            // the JVM is ending: the data directory is temporary
        }
    }
}
