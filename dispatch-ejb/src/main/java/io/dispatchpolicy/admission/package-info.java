/**
 * The admission transaction (ADR 0001): one partition, or several small ones together, locked, run
 * through their policy's gates, their jobs taken out of staging, JBeret's rows written on the same
 * connection and the admission recorded — all or nothing
 * ({@link io.dispatchpolicy.admission.DefaultAdmissionService}). Its statements live here: the take and
 * failed attempts ({@link io.dispatchpolicy.admission.AdmissionTake}), the record and submission status
 * ({@link io.dispatchpolicy.admission.AdmissionRepository}), in-flight rows
 * ({@link io.dispatchpolicy.admission.InflightRepository}), adaptive gates, a policy's capacity and pause
 * state, and the gate state's JSON. Claiming partitions is the tick's; the partition locks are
 * {@code partition}'s.
 */
package io.dispatchpolicy.admission;
