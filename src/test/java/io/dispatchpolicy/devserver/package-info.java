/**
 * The run command and the database side of the system tests. {@link io.dispatchpolicy.devserver.DevServer}
 * is {@code ./mvnw -Prun verify}: its own settings ({@link io.dispatchpolicy.devserver.RunSettings},
 * kept out of WildFly's environment), a durable embedded PostgreSQL (or the external one the
 * environment names) started before WildFly because JBeret's JDBC job repository needs it at boot,
 * the server configuration kept across runs ({@link io.dispatchpolicy.devserver.KeptConfiguration}),
 * the built EAR with the demo beside it ({@link io.dispatchpolicy.devserver.DemoEar}), and the check
 * that the server that came up is its own ({@link io.dispatchpolicy.devserver.BootLog}).
 * {@link io.dispatchpolicy.devserver.EmbeddedPostgresSession} gives the system tests a fast, fresh
 * database. {@code RunCommandIT} runs the run command in a JVM of its own and checks all of it.
 */
package io.dispatchpolicy.devserver;
