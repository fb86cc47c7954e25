/**
 * The operator console (Faces + PrimeFaces): one view bean per page, reading through
 * {@link io.dispatchpolicy.console.monitoring.Monitoring} (and the schedules through
 * {@link io.dispatchpolicy.console.schedule.ScheduleControl}) and acting through the policy,
 * partition, dead-job and schedule controls after checking the {@code dispatch-admin} role. Outputs are escaped by Faces;
 * nothing is rendered with {@code escape="false"}.
 */
package io.dispatchpolicy.interfaces.web;
