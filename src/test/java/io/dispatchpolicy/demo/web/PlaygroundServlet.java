package io.dispatchpolicy.demo.web;

import io.dispatchpolicy.demo.Feature;
import io.dispatchpolicy.demo.Playground;
import io.dispatchpolicy.demo.PlaygroundPolicies;
import io.dispatchpolicy.demo.PlaygroundRefused;
import io.dispatchpolicy.api.SubmissionRejectedException;
import io.dispatchpolicy.demo.Storm;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The playground page, {@code /dispatch/playground}: one card per feature that submits a small scenario
 * and links to the console pages that show it work, and the storm form. The run command adds it to the
 * console's WAR (so one login serves both); no built artifact contains it.
 *
 * <p>Everyone who may see the console may see the page; only an operator or admin may run a card or a
 * storm. Posts carry the session's token (a form from another site cannot run a card) and answer with a
 * redirect, so a reload never submits twice. Every value written into the page is escaped.
 */
@WebServlet("/playground")
public class PlaygroundServlet extends HttpServlet {

    private static final Logger LOG = Logger.getLogger(PlaygroundServlet.class.getName());
    private static final String TOKEN = "playground.token";
    private static final String SAID = "playground.said";
    private static final String REFUSED = "playground.refused";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    Playground playground;

    @Inject
    Storm storm;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.setCharacterEncoding("UTF-8");
        HttpSession session = request.getSession();
        String forbidden = !sameToken(session, request.getParameter("token"))
                ? "the form has expired or came from elsewhere: reload the playground"
                : !mayRun(request) ? "running a scenario needs the dispatch-operator or dispatch-admin role" : null;
        if (forbidden != null) {
            session.setAttribute(REFUSED, forbidden);
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            render(request, response, null, null);
            return;
        }
        String anchor = "";
        try {
            switch (String.valueOf(request.getParameter("action"))) {
                case "run" -> {
                    Feature card = Feature.byId(request.getParameter("card"));
                    if (card == null || card == Feature.STORM) {
                        throw new PlaygroundRefused("card", "no card '" + request.getParameter("card") + "'");
                    }
                    anchor = "#" + card.id();
                    session.setAttribute(SAID, playground.run(card));
                    LOG.info(() -> request.getRemoteUser() + " ran the playground's " + card.id() + " card");
                }
                case "storm" -> {
                    anchor = "#storm";
                    Map<String, String> form = new HashMap<>();
                    for (String field : List.of("tenants", "jobs", "duration", "distribution")) {
                        form.put(field, request.getParameter(field));
                    }
                    Storm.Request asked = Storm.Request.parse(form);
                    storm.start(asked);
                    session.setAttribute(SAID, "The storm is blowing: " + asked.jobs() + " jobs for " + asked.tenants()
                            + " tenants over " + asked.duration().toSeconds() + " s, " + asked.distribution().id() + ".");
                    LOG.info(() -> request.getRemoteUser() + " started a playground storm: " + asked);
                }
                case "call-off" -> {
                    anchor = "#storm";
                    Storm.Status was = storm.callOff();
                    session.setAttribute(SAID, was == null ? "No storm to call off."
                            : "Storm called off after " + was.submitted() + " jobs.");
                }
                default -> throw new PlaygroundRefused("action", "unknown action '" + request.getParameter("action") + "'");
            }
        } catch (PlaygroundRefused refused) {
            // the page again, the posted values in the form beside the error and the bad field marked
            session.setAttribute(REFUSED, refused.getMessage());
            response.setStatus(refused.field() == null ? HttpServletResponse.SC_CONFLICT : HttpServletResponse.SC_BAD_REQUEST);
            render(request, response, refused.field(), request);
            return;
        } catch (SubmissionRejectedException rejected) {
            session.setAttribute(REFUSED, rejected.getMessage());
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            render(request, response, null, null);
            return;
        }
        response.sendRedirect(request.getContextPath() + "/playground" + anchor);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        render(request, response, null, null);
    }

    private void render(HttpServletRequest request, HttpServletResponse response, String badField, HttpServletRequest form)
            throws IOException {
        HttpSession session = request.getSession();
        String token = token(session);
        String said = (String) session.getAttribute(SAID);
        String refused = (String) session.getAttribute(REFUSED);
        session.removeAttribute(SAID);
        session.removeAttribute(REFUSED);
        boolean mayRun = mayRun(request);
        String console = request.getContextPath() + "/";

        StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Playground · Dispatch Policy</title><style>").append(CSS).append("</style></head><body>");
        h.append("<header><h1>Dispatch Policy playground</h1><nav><a href=\"").append(console)
                .append("\">Console</a> <span class=\"who\">").append(esc(request.getRemoteUser())).append("</span></nav></header><main>");
        h.append("<p class=\"intro\">Each card submits a small scenario through the governed operator, as an application "
                + "would, to a policy of its own (<code>pg-…</code>, partitioned by tenant). Follow its links to watch it in the "
                + "console. The storm sends many tenants' jobs at once to watch the adaptive caps and fairness work. "
                + "The cards share this node's batch threads: run several at once and some wait for a thread too (the "
                + "Denials page says which).</p>");
        if (!mayRun) {
            h.append("<p class=\"note\">You may look but not run: running a scenario needs the dispatch-operator or dispatch-admin role.</p>");
        }
        if (said != null) {
            h.append("<p class=\"said\" id=\"said\" role=\"status\">").append(esc(said)).append("</p>");
        }
        if (refused != null) {
            h.append("<p class=\"refused\" id=\"refused\" role=\"alert\">Not done: ").append(esc(refused)).append("</p>");
        }
        stormSection(h, token, mayRun, badField, form, console);
        h.append("<section class=\"cards\">");
        for (Feature f : Feature.values()) {
            if (f != Feature.STORM) {
                card(h, f, token, mayRun, console);
            }
        }
        h.append("</section></main></body></html>");
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(h.toString());
    }

    private static void card(StringBuilder h, Feature f, String token, boolean mayRun, String console) {
        h.append("<article class=\"card\" id=\"").append(f.id()).append("\"><h2>").append(esc(f.title())).append("</h2>")
                .append("<p class=\"policy\"><code>").append(f.job()).append("</code> ").append(esc(f.policy())).append("</p>")
                .append("<p>").append(esc(f.scenario())).append("</p>")
                .append("<form method=\"post\" action=\"playground\"><input type=\"hidden\" name=\"token\" value=\"").append(token)
                .append("\"><input type=\"hidden\" name=\"action\" value=\"run\"><input type=\"hidden\" name=\"card\" value=\"")
                .append(f.id()).append("\"><button type=\"submit\"").append(mayRun ? "" : " disabled").append(">Run</button></form>")
                .append("<p class=\"watch\">Watch: ");
        watchLinks(h, f, console);
        h.append("</p></article>");
    }

    private static void watchLinks(StringBuilder h, Feature f, String console) {
        List<String[]> links = watch(f);
        for (int i = 0; i < links.size(); i++) {
            h.append(i == 0 ? "" : " · ").append("<a href=\"").append(esc(console + links.get(i)[1])).append("\">")
                    .append(esc(links.get(i)[0])).append("</a>");
        }
    }

    /** The console pages that show a card's scenario at work: label, address below the console's root. */
    static List<String[]> watch(Feature f) {
        String policy = f.job();
        return switch (f) {
            case THROTTLE, CONCURRENCY, PRIORITY, DELAY, UNIQUENESS, DEADLINE ->
                    List.of(jobsOf(policy, "acme"), denials(policy));
            case ADAPTIVE -> List.of(new String[] {"partitions (caps)", "partitions.xhtml"}, jobsOf(policy, "acme"), denials(policy));
            case FAIRNESS -> List.of(jobsOf(policy, "whale"), jobsOf(policy, "minnow-1"), denials(policy));
            case LANES -> List.of(new String[] {"policies (lanes)", "policies.xhtml"}, jobsOf(policy, "globex"), denials(policy));
            case DEMOTION -> List.of(new String[] {"policies (lanes)", "policies.xhtml"}, jobsOf(policy, "noisy"), jobsOf(policy, "quiet"));
            case RETRIES -> List.of(new String[] {"dead jobs", "dead.xhtml"}, jobsOf(policy, "acme"));
            case TIMEOUT -> List.<String[]>of(jobsOf(policy, "acme"));
            case SCHEDULES -> List.of(new String[] {"the schedule", "schedule.xhtml?name=" + enc(PlaygroundPolicies.SCHEDULE)},
                    jobsOf(policy, "scheduled"));
            case SHARDING -> List.of(new String[] {"dashboard", ""}, jobsOf(policy, "tenant-1"));
            case STORM -> List.of(new String[] {"dashboard", ""}, new String[] {"partitions", "partitions.xhtml"}, denials(policy));
        };
    }

    private static String[] jobsOf(String policy, String tenant) {
        return new String[] {"jobs of " + tenant, "jobs.xhtml?by=partition&policy=" + enc(policy) + "&value=" + enc(tenant)};
    }

    private static String[] denials(String policy) {
        return new String[] {"denials", "denials.xhtml?policy=" + enc(policy)};
    }

    private void stormSection(StringBuilder h, String token, boolean mayRun, String badField, HttpServletRequest form,
                              String console) {
        Storm.Status now = storm.status();
        h.append("<section class=\"storm card\" id=\"storm\"><h2>Storm</h2><p class=\"policy\"><code>")
                .append(Feature.STORM.job()).append("</code> ").append(esc(Feature.STORM.policy())).append("</p>");
        if (now != null) {
            Storm.Request r = now.request();
            long ran = Duration.between(now.started(), Instant.now()).toSeconds();
            h.append("<p class=\"status\" id=\"storm-status\">").append(now.blowing() ? "Blowing" : "Last storm").append(": ")
                    .append(now.submitted()).append(" of ").append(r.jobs()).append(" jobs submitted for ").append(r.tenants())
                    .append(" tenants (").append(r.distribution().id()).append("), started ").append(ran).append(" s ago");
            if (now.failure() != null) {
                h.append("; stopped: ").append(esc(now.failure()));
            }
            h.append(".</p>");
        }
        h.append("<form method=\"post\" action=\"playground\" class=\"storm-form\"><input type=\"hidden\" name=\"token\" value=\"")
                .append(token).append("\"><input type=\"hidden\" name=\"action\" value=\"storm\">");
        field(h, "tenants", "Tenants", "1 to " + Storm.MAX_TENANTS, value(form, "tenants", "50"), badField);
        field(h, "jobs", "Jobs", "1 to " + Storm.MAX_JOBS, value(form, "jobs", "2000"), badField);
        field(h, "duration", "Over (s)", "1 to " + Storm.MAX_DURATION.toSeconds(), value(form, "duration", "60"), badField);
        String chosen = value(form, "distribution", Storm.Distribution.TRIANGULAR.id());
        h.append("<label").append("distribution".equals(badField) ? " class=\"bad\"" : "")
                .append(">Weights <select name=\"distribution\">");
        for (Storm.Distribution d : Storm.Distribution.values()) {
            h.append("<option value=\"").append(d.id()).append('"').append(d.id().equals(chosen) ? " selected" : "").append('>')
                    .append(d.id()).append("</option>");
        }
        h.append("</select></label><button type=\"submit\"").append(mayRun ? "" : " disabled").append(">Start the storm</button></form>");
        if (now != null && now.blowing()) {
            h.append("<form method=\"post\" action=\"playground\"><input type=\"hidden\" name=\"token\" value=\"").append(token)
                    .append("\"><input type=\"hidden\" name=\"action\" value=\"call-off\"><button type=\"submit\"")
                    .append(mayRun ? "" : " disabled").append(">Call it off</button></form>");
        }
        h.append("<p>Triangular: tenant k of n sends k shares, so the busiest sends n times the quietest; one-heavy: the first "
                + "tenant sends half of all jobs. Jobs run 0.1 to 0.6 s.</p><p class=\"watch\">Watch: ");
        watchLinks(h, Feature.STORM, console);
        h.append("</p></section>");
    }

    private static void field(StringBuilder h, String name, String label, String range, String value, String badField) {
        h.append("<label").append(name.equals(badField) ? " class=\"bad\"" : "").append('>').append(esc(label))
                .append(" <input name=\"").append(name).append("\" value=\"").append(esc(value))
                .append("\" size=\"6\" inputmode=\"numeric\" title=\"").append(esc(range)).append("\"></label>");
    }

    private static String value(HttpServletRequest form, String field, String otherwise) {
        String v = form == null ? null : form.getParameter(field);
        return v == null ? otherwise : v;
    }

    private static boolean mayRun(HttpServletRequest request) {
        return request.isUserInRole("dispatch-operator") || request.isUserInRole("dispatch-admin");
    }

    private static String token(HttpSession session) {
        String token = (String) session.getAttribute(TOKEN);
        if (token == null) {
            byte[] bytes = new byte[18];
            RANDOM.nextBytes(bytes);
            token = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            session.setAttribute(TOKEN, token);
        }
        return token;
    }

    private static boolean sameToken(HttpSession session, String given) {
        String token = (String) session.getAttribute(TOKEN);
        return token != null && given != null
                && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2933;background:#f5f7fa}
            header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1.5rem;background:#1f2933;color:#fff}
            header h1{font-size:1.2rem;margin:0}header a{color:#9fd3ff;margin-right:1rem}.who{opacity:.8}
            main{padding:1rem 1.5rem;max-width:1400px}
            .intro{max-width:60rem}.said{background:#e3f9e5;border:1px solid #57ae5b;padding:.5rem .75rem}
            .refused,.note{background:#ffeeee;border:1px solid #e66a6a;padding:.5rem .75rem}
            .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:1rem;margin-top:1rem}
            .card{background:#fff;border:1px solid #d9e2ec;border-radius:6px;padding:.75rem 1rem;display:flex;flex-direction:column;gap:.25rem}
            .card h2{font-size:1.05rem;margin:.2rem 0}.card p{margin:.3rem 0}.policy{color:#52606d}
            .card form{margin:.3rem 0}.watch{margin-top:auto!important;font-size:.9rem}
            .storm-form{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}
            label.bad input,label.bad select{border:2px solid #d64545}
            button{padding:.35rem 1rem;cursor:pointer}code{background:#eef2f7;padding:0 .25rem}
            """;
}
