/**
 * The adoption test: a user's own EAR and WAR ({@code app}), built from the packaged artifacts an
 * adopter depends on, deployed on a pristine WildFly that the documented {@code configure.cli} command
 * configured, with a console account added by {@code add-user.sh}.
 */
package io.dispatchpolicy.adoption;
