/**
 * The database side of the dev server and the system tests: an embedded PostgreSQL (or the external
 * one the environment names), started before WildFly boots because JBeret's JDBC job repository needs
 * it at boot, and the run command's launcher.
 */
package io.dispatchpolicy.devserver;
