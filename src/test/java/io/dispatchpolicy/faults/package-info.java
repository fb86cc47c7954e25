/**
 * The fault suite: each {@code *FaultIT} runs the real server as an operator would — embedded
 * PostgreSQL, then {@code standalone.sh} with the EAR plus a fault policy and job — submits a storm,
 * causes one fault mid-storm (kill -9 of WildFly, PostgreSQL immediate stop, clean WildFly stop, kill -9
 * of one of two servers sharing a node name, kill -9 of each of two nodes in turn with a restart
 * between), waits for the storm to drain and checks the invariants with SQL
 * ({@link io.dispatchpolicy.faults.check}); one more keeps a staged retry across a clean stop and checks
 * it runs after the boot, and one checks that sharded policies are admitted only by their shard's node.
 * Not Arquillian: run by failsafe executions of their own ({@code ./mvnw -Pfaults verify}; the
 * PostgreSQL scenario and the two-node ones, smaller, and the retry one also in {@code ./mvnw verify}). Results: {@code dispatch-ear/target/faults/}.
 */
package io.dispatchpolicy.faults;
