/**
 * Extension points: how an application declares a {@link io.dispatchpolicy.spi.Policy} and a recurring
 * {@link io.dispatchpolicy.spi.Schedule} (CDI producers in any bean archive the engine can see) and the
 * {@link io.dispatchpolicy.spi.JobsAdmitting} event observers receive inside the admission transaction.
 */
package io.dispatchpolicy.spi;
