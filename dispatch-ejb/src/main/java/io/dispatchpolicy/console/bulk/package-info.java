/**
 * Bulk actions by filter (ADR 0039): discard or expire staged jobs, stop running ones, restart failed ones,
 * retry dead ones — every job a filter matches, asynchronously in bounded batches with progress, cancellable,
 * one audit row per request. {@link io.dispatchpolicy.console.bulk.BulkActionControl} is the console's and the
 * API's way in; {@link io.dispatchpolicy.console.bulk.BulkActionRunner} runs the batches from the node's
 * maintenance; {@link io.dispatchpolicy.console.bulk.BulkActionRepository} holds their SQL.
 */
package io.dispatchpolicy.console.bulk;
