/**
 * The domain model: submissions and their parameters, partitions as the tick claims them, and staged
 * jobs as admission takes them. Plain values; no container or database types.
 */
package io.dispatchpolicy.domain.model;
