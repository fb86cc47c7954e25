/**
 * System tests: Arquillian deploys the real EAR plus a test EJB module (these classes, the fixture
 * policies and the {@code it-*} job XMLs) to the managed WildFly, and the tests run inside it.
 */
package io.dispatchpolicy.it;
