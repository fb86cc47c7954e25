/**
 * PostgreSQL persistence: the Flyway migrations run at deployment, and one repository per table
 * family, each holding the native SQL it runs ({@code SKIP LOCKED}, {@code ON CONFLICT}, array
 * {@code unnest} for batches). Every table lives on the datasource JBeret's job repository uses, so
 * one JTA transaction covers both.
 */
package io.dispatchpolicy.infrastructure.persistence;
