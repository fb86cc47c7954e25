/**
 * PostgreSQL plumbing every role uses: the JDBC helper ({@link io.dispatchpolicy.infrastructure.persistence.Jdbc}),
 * JSON, work after commit, and the Flyway migrations run at deployment. Each role keeps its own statements in its
 * folder (ADR 0018); every table lives on the datasource JBeret's job repository uses, so one JTA transaction
 * covers both.
 */
package io.dispatchpolicy.infrastructure.persistence;
