/**
 * The engine's settings, read through MicroProfile Config from the {@code dispatch.*} system
 * properties that {@code wildfly-config} writes into {@code standalone.xml}.
 */
package io.dispatchpolicy.config;
