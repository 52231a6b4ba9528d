package dev.agentwarden.dashboard;

import dev.agentwarden.report.ReportHtml;

/**
 * The dashboard's page: the report's {@link ReportHtml#page} with a live table of the latest
 * decisions above the report's sections, and an inline script that listens to {@code /events}:
 * a {@code decision} event adds a row (as text, never markup), a {@code report} event replaces the
 * sections with the server's new rendering of them.
 */
final class DashboardPage {
    /** Rows the live table keeps. */
    static final int LIVE_ROWS = 50;

    private static final String LIVE = "<section id=\"live\"><h2>Live decisions <small id=\"live-status\" data-state=\"connecting\">"
            + "connecting</small></h2>\n<table><thead><tr><th>time (UTC)</th><th>host</th><th>event</th><th>verdict</th>"
            + "<th>asked</th></tr></thead><tbody id=\"live-rows\"></tbody></table>\n"
            + "<p class=\"empty\" id=\"live-empty\">Decisions recorded from now on appear here as they happen.</p></section>\n";

    private static final String SCRIPT = """
            (function () {
              var rows = document.getElementById('live-rows');
              var status = document.getElementById('live-status');
              function state(s, text) { status.dataset.state = s; status.textContent = text; }
              var source = new EventSource('/events');
              source.onopen = function () { state('live', 'live'); };
              source.onerror = function () { state('reconnecting', 'reconnecting'); };
              source.addEventListener('decision', function (e) {
                var d = JSON.parse(e.data);
                var tr = document.createElement('tr');
                tr.className = 'live-decision';
                tr.dataset.verdict = String(d.verdict);
                [d.ts, d.host, d.event, d.verdict, d.asked].forEach(function (v) {
                  var td = document.createElement('td');
                  td.textContent = v == null ? '' : String(v);
                  tr.appendChild(td);
                });
                rows.insertBefore(tr, rows.firstChild);
                while (rows.children.length > %d) { rows.removeChild(rows.lastChild); }
                document.getElementById('live-empty').hidden = true;
              });
              source.addEventListener('report', function (e) {
                var report = document.getElementById('report');
                report.innerHTML = e.data;
                report.dataset.version = e.lastEventId;
              });
              source.addEventListener('problem', function (e) { state('problem', e.data); });
            })();
            """.formatted(LIVE_ROWS);

    private DashboardPage() {
    }

    /** The page with the report's {@code sections}; its script carries {@code nonce}, which the response's CSP allows. */
    static String render(String sections, long version, String nonce) {
        String body = LIVE + "<div id=\"report\" data-version=\"" + version + "\">" + sections + "</div>\n";
        return ReportHtml.page("Agent Warden dashboard", body, "<script nonce=\"" + nonce + "\">" + SCRIPT + "</script>\n");
    }

    /** The Content-Security-Policy of the page: nothing from elsewhere, only its own script, events from itself. */
    static String policy(String nonce) {
        return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'unsafe-inline'; connect-src 'self'; "
                + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    }
}
