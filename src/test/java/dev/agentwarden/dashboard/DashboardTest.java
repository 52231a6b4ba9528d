package dev.agentwarden.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.cli.WardenCli;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's server over real sockets: who is refused (no or a wrong token, another Host or
 * Origin) with no data in the answer, the token-to-cookie flow, the limits, the cap on event
 * streams, and a decision dispatched in-process arriving as events.
 */
class DashboardTest {
    private static final Pattern COOKIE = Pattern.compile("Set-Cookie: (warden_dashboard_\\d+)=([0-9a-f]{32}); Path=/; HttpOnly; "
            + "SameSite=Strict\r\n");

    @TempDir
    Path project;
    @TempDir
    Path cache;

    /** The head deadline of the dashboard that silent clients fill: 32 connections are opened well within it. */
    private static final long SILENT_HEAD_DEADLINE_MS = 15_000;

    private InProcessDispatch dispatch;
    private Dashboard dashboard;
    private int port;

    @BeforeEach
    void start() throws Exception {
        dispatch = new InProcessDispatch(cache, Clock.systemUTC(), Map.of("CLAUDE_PROJECT_DIR", project.toString()));
        dispatchBash("rm -rf /tmp/seeded-before-start");
        dashboard = Dashboard.start(new Dashboard.Settings(0, List.of(project.toString()), null, Clock.systemUTC(), 2));
        port = dashboard.port();
    }

    @AfterEach
    void stop() {
        dashboard.close();
    }

    private void dispatchBash(String command) {
        Map<String, Object> payload = HostPayloads.claude("PreToolUse", "tool_name", "Bash", "tool_input",
                Map.of("command", command), "cwd", project.toString());
        assertThat(dispatch.run("claude", Json.write(payload), "--native-event", "PreToolUse").exitCode()).isIn(0, 2);
    }

    private String token() {
        String url = dashboard.url();
        assertThat(url).matches("http://127\\.0\\.0\\.1:" + port + "/\\?token=[0-9a-f]{32}");
        return url.substring(url.indexOf("token=") + "token=".length());
    }

    /** The cookie header the token is traded for. */
    private String cookie() throws Exception {
        String answer = DashboardHttp.exchange(port, "/?token=" + token());
        Matcher m = COOKIE.matcher(answer);
        assertThat(m.find()).as("Set-Cookie in %s", answer).isTrue();
        return "Cookie: " + m.group(1) + "=" + m.group(2);
    }

    private void assertRefusedWithoutData(String answer, int status, String code) {
        assertThat(answer).startsWith("HTTP/1.1 " + status + " ").contains("\"error\":\"" + code + "\"")
                .doesNotContain(project.toString()).doesNotContain("total-decisions").doesNotContain("PreToolUse")
                .doesNotContain("<svg").doesNotContain("Set-Cookie");
    }

    @Test
    void page_withoutTokenOrCookie_isRefused403WithNoData() throws Exception {
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/"), 403, "forbidden");
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/events"), 403, "forbidden");
    }

    @Test
    void page_withWrongToken_isRefused403WithNoCookie() throws Exception {
        String wrong = token().startsWith("0") ? "1" + token().substring(1) : "0" + token().substring(1);
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/?token=" + wrong), 403, "forbidden");
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/?token="), 403, "forbidden");
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/events?token=" + token()), 403, "forbidden");
    }

    @Test
    void token_isTradedForAnHttpOnlyStrictCookie_whichServesThePage() throws Exception {
        String answer = DashboardHttp.exchange(port, "/?token=" + token());
        assertThat(answer).startsWith("HTTP/1.1 303 ").contains("Location: /\r\n");
        String cookie = cookie();
        assertThat(cookie).doesNotContain(token());

        String page = DashboardHttp.exchange(port, "/", cookie);
        assertThat(page).startsWith("HTTP/1.1 200 ").contains("Content-Security-Policy: default-src 'none'; script-src 'nonce-")
                .contains("<svg data-chart=\"over-time\"").contains("id=\"total-decisions\" data-count=\"1\"")
                .contains("Projects: " + project).contains("new EventSource('/events')").doesNotContain("http://")
                .doesNotContain("https://");

        String forged = cookie.substring(0, cookie.length() - 1) + (cookie.endsWith("0") ? "1" : "0");
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/", forged), 403, "forbidden");
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/", "Cookie: " + token()), 403, "forbidden");
    }

    @Test
    void request_withAnotherHostOrOrigin_isRefused_evenWithTheCookie() throws Exception {
        String cookie = cookie();
        for (String host : List.of("Host: attacker.example:" + port, "Host: 127.0.0.1", "Host: 127.0.0.1:1", "Host: localhost.attacker.example:" + port)) {
            try (DashboardHttp h = DashboardHttp.send(port, "GET / HTTP/1.1", host, cookie)) {
                assertRefusedWithoutData(h.readToEnd(), 403, "host_refused");
            }
        }
        try (DashboardHttp h = DashboardHttp.send(port, "GET / HTTP/1.1", cookie)) {
            assertRefusedWithoutData(h.readToEnd(), 403, "host_refused");
        }
        try (DashboardHttp h = DashboardHttp.send(port, "GET /?token=" + token() + " HTTP/1.1", "Host: attacker.example:" + port)) {
            assertRefusedWithoutData(h.readToEnd(), 403, "host_refused");
        }
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/events", cookie, "Origin: http://attacker.example"), 403,
                "origin_refused");
        assertThat(DashboardHttp.exchange(port, "/", cookie, "Origin: http://127.0.0.1:" + port)).startsWith("HTTP/1.1 200 ");
        try (DashboardHttp h = DashboardHttp.send(port, "GET / HTTP/1.1", "Host: localhost:" + port, cookie)) {
            assertThat(h.readToEnd()).startsWith("HTTP/1.1 200 ");
        }
    }

    /** The resident's host-hook port rule: a peer the kernel names as another user is closed on, nothing sent. */
    @Test
    void connection_fromAnotherUser_isClosedWithNothingSent_evenWithTheCookie() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to connect as another user");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && Files.isExecutable(Path.of("/usr/bin/curl")),
                "needs setpriv and curl");
        String cookie = cookie();
        List<String> curl = List.of("/usr/bin/curl", "-s", "-S", "-o", "-", "-w", "status=%{http_code}", "--max-time", "20",
                "-H", cookie, "http://127.0.0.1:" + port + "/");
        assertThat(run(curl)).as("this user's curl").contains("id=\"total-decisions\"").endsWith("status=200");

        List<String> asNobody = new java.util.ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                "--clear-groups"));
        asNobody.addAll(curl);
        assertThat(run(asNobody)).as("another user's curl").doesNotContain("total-decisions").doesNotContain("HTTP/")
                .endsWith("status=000");
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("%s ends", command).isTrue();
        return out.strip();
    }

    @Test
    void requests_pastTheLimits_areRefused() throws Exception {
        String cookie = cookie();
        try (DashboardHttp h = DashboardHttp.send(port, "POST / HTTP/1.1", "Host: 127.0.0.1:" + port, cookie)) {
            assertRefusedWithoutData(h.readToEnd(), 405, "method_not_allowed");
        }
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/", cookie, "Content-Length: 5"), 413, "body_not_accepted");
        try (DashboardHttp h = DashboardHttp.send(port, "GET / HTTP/1.1", "Host: 127.0.0.1:" + port, cookie,
                "Content-Length: 40000\r\n\r\n" + "b".repeat(40_000 - 4))) {
            assertRefusedWithoutData(h.readToEnd(), 413, "body_not_accepted");
        }
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/", cookie, "X-Filler: " + "a".repeat(Dashboard.HEAD_BYTES)), 431,
                "head_too_large");
        assertRefusedWithoutData(DashboardHttp.exchange(port, "/other", cookie), 404, "not_found");
        try (DashboardHttp h = DashboardHttp.send(port, "NOT HTTP")) {
            assertRefusedWithoutData(h.readToEnd(), 400, "bad_request_line");
        }
    }

    /**
     * Silent clients hold every connection: the next is closed with nothing sent; each silent one gets
     * 408 when its head deadline passes, and the dashboard serves again. The cap must be full before the
     * first silent client's deadline passes, so this dashboard waits {@link #SILENT_HEAD_DEADLINE_MS} for a
     * head, not the shipped 5 s, which a busy 2-core machine (unit classes side by side) did not always meet.
     */
    @Test
    void silentConnections_fillTheCap_thenTimeOutWith408_andTheDashboardServesAgain() throws Exception {
        dashboard.close();
        dashboard = Dashboard.start(new Dashboard.Settings(0, List.of(project.toString()), null, Clock.systemUTC(), 2),
                SILENT_HEAD_DEADLINE_MS);
        port = dashboard.port();
        String cookie = cookie();
        List<DashboardHttp> silent = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < Dashboard.MAX_CONNECTIONS; i++) {
                silent.add(DashboardHttp.partial(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1"));
            }
            long deadline = System.nanoTime() + DashboardHttp.DEADLINE.toNanos();
            String extra;
            do {
                assertThat(System.nanoTime() - deadline).as("a connection past the cap is closed at once").isNegative();
                try (DashboardHttp h = DashboardHttp.get(port, "/", cookie)) {
                    extra = h.readToEnd();
                }
            } while (!extra.isEmpty()); // until the server has taken all the silent ones
            for (DashboardHttp h : silent) {
                assertRefusedWithoutData(h.readToEnd(), 408, "head_timeout");
            }
        } finally {
            for (DashboardHttp h : silent) {
                h.close();
            }
        }
        long deadline = System.nanoTime() + DashboardHttp.DEADLINE.toNanos();
        String page;
        do {
            assertThat(System.nanoTime() - deadline).as("served again").isNegative();
            page = DashboardHttp.exchange(port, "/", cookie);
        } while (page.isEmpty());
        assertThat(page).startsWith("HTTP/1.1 200 ");
    }

    @Test
    void eventStreams_pastTheCap_get503_untilOneCloses() throws Exception {
        String cookie = cookie();
        DashboardHttp first = DashboardHttp.get(port, "/events", cookie);
        DashboardHttp second = DashboardHttp.get(port, "/events", cookie);
        try {
            assertThat(first.readUntil("event: report", 0)).startsWith("HTTP/1.1 200 ").contains("Content-Type: text/event-stream");
            assertThat(second.readUntil("event: report", 0)).startsWith("HTTP/1.1 200 ");

            assertRefusedWithoutData(DashboardHttp.exchange(port, "/events", cookie), 503, "too_many_clients");
            assertThat(DashboardHttp.exchange(port, "/", cookie)).as("the page is still served").startsWith("HTTP/1.1 200 ");
        } finally {
            first.close();
        }
        // the server notices the closed stream at its next write: a decision makes one
        dispatchBash("ls /tmp/after-close");
        long deadline = System.nanoTime() + DashboardHttp.DEADLINE.toNanos();
        while (dashboard.eventClients() > 1) {
            assertThat(System.nanoTime() - deadline).as("the closed stream is let go").isNegative();
            Thread.sleep(20);
        }
        try (DashboardHttp third = DashboardHttp.get(port, "/events", cookie)) {
            assertThat(third.readUntil("event: report", 0)).startsWith("HTTP/1.1 200 ");
        } finally {
            second.close();
        }
    }

    @Test
    void decision_dispatchedWhileConnected_arrivesAsDecisionThenReportEvent() throws Exception {
        String cookie = cookie();
        try (DashboardHttp events = DashboardHttp.get(port, "/events", cookie)) {
            String first = events.readUntil("event: report", 0);
            assertThat(first).contains("id=\"total-decisions\" data-count=\"1\"");
            int seen = first.length();

            dispatchBash("echo live-one");

            String more = events.readUntil("echo live-one", seen);
            assertThat(more.substring(seen)).contains("event: decision\ndata: {\"ts\":\"").contains("\"host\":\"claude\"")
                    .contains("\"event\":\"PreToolUse\"").contains("\"asked\":\"echo live-one\"");
            String report = events.readUntil("id=\"total-decisions\" data-count=\"2\"", seen);
            assertThat(report.substring(seen)).contains("event: report\nid: 2\n");
        }
    }

    @Test
    void start_onATakenPort_failsWithAClearMessage() {
        assertThatThrownBy(() -> Dashboard.start(new Dashboard.Settings(port, List.of(project.toString()), null,
                Clock.systemUTC(), 2))).isInstanceOf(Dashboard.PortTaken.class)
                .hasMessageStartingWith("port " + port + " on 127.0.0.1 is taken (").hasMessageContaining("--port");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WardenCli.execute(new String[] {"dashboard", "--port", String.valueOf(port), "--project-dir", project.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true), Map.of("WARDEN_CACHE_DIR", cache.toString()));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("warden dashboard: port " + port + " on 127.0.0.1 is taken").doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void gate_comparesSecrets_andNamesOnlyThisPort() {
        DashboardGate gate = new DashboardGate(4242, "a".repeat(32), "b".repeat(32));
        assertThat(gate.tokenMatches("a".repeat(32))).isTrue();
        assertThat(gate.tokenMatches("a".repeat(31))).isFalse();
        assertThat(gate.tokenMatches(null)).isFalse();
        assertThat(gate.cookieMatches("x=1; warden_dashboard_4242=" + "b".repeat(32))).isTrue();
        assertThat(gate.cookieMatches("warden_dashboard_4243=" + "b".repeat(32))).isFalse();
        assertThat(gate.cookieMatches("warden_dashboard_4242=" + "a".repeat(32))).isFalse();
        assertThat(gate.hostAllowed("LOCALHOST:4242")).isTrue();
        assertThat(gate.hostAllowed("127.0.0.1.nip.io:4242")).isFalse();
        assertThat(gate.originAllowed(null)).isTrue();
        assertThat(gate.originAllowed("null")).isFalse();
        assertThat(DashboardGate.newSecret()).matches("[0-9a-f]{32}").isNotEqualTo(DashboardGate.newSecret());
    }
}
