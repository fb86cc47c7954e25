/**
 * Extensions of WildFly's connection pool for the engine's datasource, installed as the JBoss module
 * {@code io.dispatchpolicy.datasource} (wildfly-config's {@code 01-postgresql-module.cli} and
 * {@code configure.cli}) and named by the datasource in {@code dispatch.cli}. Nothing here is deployed.
 */
package io.dispatchpolicy.datasource;
