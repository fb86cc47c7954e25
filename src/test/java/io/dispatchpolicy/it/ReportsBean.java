package io.dispatchpolicy.it;

import jakarta.annotation.Resource;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;

/** A bean only the role "reports" may call, as a job's code would call an application's secured service. */
@Stateless
@RolesAllowed("reports")
public class ReportsBean {

    @Resource
    SessionContext context;

    /** The caller, as the container sees it. */
    public String whoAmI() {
        return context.getCallerPrincipal().getName();
    }
}
