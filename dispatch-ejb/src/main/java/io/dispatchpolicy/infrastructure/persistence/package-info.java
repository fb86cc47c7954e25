/**
 * PostgreSQL persistence: the Flyway migrations run at deployment, and one repository per table
 * family, each holding the native SQL it runs ({@code SKIP LOCKED}, {@code ON CONFLICT}, array
 * {@code unnest} for batches). Every table lives on the datasource JBeret's job repository uses, so
 * one JTA transaction covers both. Repositories speak domain types or records of their own; the
 * console's queries live with the console's services (ADR 0018). Also this node's view of that database: its liveness lock and
 * heartbeat ({@link io.dispatchpolicy.infrastructure.persistence.NodeLiveness}, ADR 0007) and whether
 * the database is reachable at all ({@link io.dispatchpolicy.infrastructure.persistence.DatabaseOutage},
 * ADR 0006).
 */
package io.dispatchpolicy.infrastructure.persistence;
