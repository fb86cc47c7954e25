/** The JSON endpoint ({@code /dispatch/api/summary}) for scripts and monitoring. */
package io.dispatchpolicy.interfaces.rest;
