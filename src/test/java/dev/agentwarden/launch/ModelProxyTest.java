package dev.agentwarden.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.EvidenceReplay;
import dev.agentwarden.integrity.Outcome;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.integrity.agentfile.AttachForm;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.json.Json;
import dev.agentwarden.release.ReleaseSources;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The observed-prompt proxy against a scripted upstream on 127.0.0.1. */
class ModelProxyTest {
    static final String HEAD = BoundaryProfile.SQUAD_HEAD_CANARY;
    static final String EOF = BoundaryProfile.SQUAD_EOF_CANARY;
    static final String FILE = "---\nname: Squad\ndescription: \"the team\"\ntools: [\"*\"]\n---\n" + HEAD
            + "\n<!-- version: 0.13.1 -->\nYou coordinate the team.\nSay \"hello\" with a tab\there.\n" + EOF + "\n";
    /** Three SSE events, split across writes, as a provider streams them. */
    static final byte[] SSE = ("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n"
            + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
            + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;
    HttpServer upstream;
    final AtomicInteger upstreamCalls = new AtomicInteger();
    final List<String> upstreamAuth = new ArrayList<>();
    volatile CountDownLatch stall;
    ModelProxy proxy;
    PromptGate gate;
    Path evidence;
    final StringWriter notes = new StringWriter();
    AttachForm form = AttachForm.AGENT_BODY_LF;
    /** Who is behind each connection the proxy accepts; {@code null}: the kernel's socket tables. */
    java.util.function.ToIntFunction<Socket> peers;
    int ownUid = dev.agentwarden.io.PeerUid.self();
    final List<Socket> floods = new ArrayList<>();
    volatile boolean flooding = true;

    @BeforeEach
    void upstream() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        upstream.createContext("/", ex -> {
            upstreamCalls.incrementAndGet();
            synchronized (upstreamAuth) {
                upstreamAuth.add(ex.getRequestHeaders().getFirst("authorization") + " " + ex.getRequestURI());
            }
            try (InputStream in = ex.getRequestBody()) {
                in.readAllBytes();
            }
            if (stall != null) {
                try {
                    stall.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            ex.getResponseHeaders().add("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                int third = SSE.length / 3;
                out.write(SSE, 0, third);
                out.flush();
                out.write(SSE, third, SSE.length - third);
            }
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        if (stall != null) {
            stall.countDown();
        }
        flooding = false;
        for (Socket f : floods) {
            try {
                f.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
        if (proxy != null) {
            proxy.close();
        }
        upstream.stop(0);
    }

    ModelProxy start(String file, String manifestSha, ModelProxy.Limits limits) throws IOException {
        Path agent = dir.resolve("squad.agent.md");
        Files.writeString(agent, file);
        IntegrityGate.Builder b = IntegrityGate.builder().profile(BoundaryProfile.squad())
                .evidenceLog(evidence = dir.resolve("evidence.jsonl")).sessionPrefix("observe");
        if (manifestSha != null) {
            Path m = dir.resolve("releases.json");
            Files.writeString(m, "[{\"agent_id\":\"squad\",\"agent_version\":\"0.13.1\",\"client_id\":\"copilot-cli\","
                    + "\"client_version\":\"1.0.102\",\"sha256\":\"" + manifestSha + "\"}]");
            b.release(ReleaseSources.open(m, null, null, java.time.Clock.systemUTC()));
        }
        IntegrityGate g = b.build();
        AgentSelection sel = AgentSelection.of("squad", agent).withAgentVersion("0.13.1").withClient("copilot-cli", "1.0.102");
        GateSession first = g.select(sel);
        first.read();
        gate = new PromptGate(g, sel, BoundaryProfile.squad(), form, first);
        proxy = ModelProxy.start(URI.create("http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1"), gate, limits,
                new PrintWriter(notes, true), peers, ownUid);
        return proxy;
    }

    ModelProxy start(String file) throws IOException {
        return start(file, null, ModelProxy.Limits.defaults());
    }

    /** An OpenAI Chat Completions request whose system message carries Copilot's agent block around {@code agentText}. */
    static String chatRequest(String agentText) {
        Map<String, Object> req = Json.object();
        req.put("model", "gpt-4.1");
        List<Object> messages = Json.array();
        Map<String, Object> system = Json.object();
        system.put("role", "system");
        system.put("content", "You are the GitHub Copilot CLI.\n<agent_instructions>\nThe following instructions come from"
                + " the selected agent's configuration.\n\n" + agentText + "\n</agent_instructions>\n<tool_calling>…");
        messages.add(system);
        Map<String, Object> user = Json.object();
        user.put("role", "user");
        user.put("content", "say hi");
        messages.add(user);
        req.put("messages", messages);
        req.put("stream", Boolean.TRUE);
        return Json.write(req);
    }

    static String body() {
        return new String(AttachForm.AGENT_BODY_LF.apply(FILE.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    HttpResponse<byte[]> post(String path, String json) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(path))
                .header("Authorization", "Bearer sk-secret").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void intactAgent_isForwarded_andSseBytesIdentical() throws Exception {
        start(FILE);
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest(body()));
        assertEquals(200, r.statusCode());
        assertArrayEquals(SSE, r.body());
        assertEquals("text/event-stream", r.headers().firstValue("content-type").orElse(""));
        assertEquals(1, upstreamCalls.get());
        assertEquals(List.of("Bearer sk-secret /v1/chat/completions"), upstreamAuth);
        String log = Files.readString(evidence);
        assertTrue(log.contains("\"outcome\":\"LOADED_WITH_REPORT\""), log);
        assertTrue(log.contains("\"attached_sha\":\"" + Sha256.hex(body().getBytes(StandardCharsets.UTF_8)) + "\""), log);
        assertTrue(log.contains("\"attached_form\":\"agent-body-lf\""), log);
        assertTrue(!log.contains("sk-secret") && !notes.toString().contains("sk-secret"), "credential written");
        EvidenceReplay.Report replay = EvidenceReplay.replay(evidence, null);
        assertEquals(0, replay.disagreeing(), "the recorded verdict is the one recomputed from the raw events");
        assertEquals(0, replay.invalidLines());
        assertEquals(Outcome.LOADED_WITH_REPORT, replay.sessions().get(0).recomputed().outcome());
    }

    @Test
    void intactAgent_laterRequests_eachGetTheirOwnSessionOnTheOneRead() throws Exception {
        start(FILE);
        for (int i = 0; i < 3; i++) {
            assertEquals(200, post(proxy.baseUrl() + "/chat/completions", chatRequest(body())).statusCode());
        }
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : Files.readAllLines(evidence)) {
            lines.add(Json.parseObject(line));
        }
        assertEquals(3 * 6, lines.size(), "selection, read, attach, transport, release, decision per request");
        assertEquals(3, lines.stream().map(l -> l.get("session")).distinct().count());
        assertEquals(1, lines.stream().filter(l -> "payload_read_status".equals(l.get("event")))
                .map(l -> {
                    Map<String, Object> read = new LinkedHashMap<>(l);
                    read.keySet().removeAll(List.of("session", "seq", "at"));
                    return Json.write(read);
                }).distinct().count(), "one read, adopted");
    }

    /** Claude Code's {@code --agent}: the body, CRLF kept, as a block of {@code system}. */
    @Test
    void anthropicSystemBlock_withTheAgentBody_isForwarded() throws Exception {
        form = AttachForm.AGENT_BODY;
        String crlf = FILE.replace("You coordinate the team.\n", "You coordinate the team.\r\n");
        start(crlf);
        String agentBody = new String(AttachForm.AGENT_BODY.apply(crlf.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        Map<String, Object> req = Json.object();
        req.put("model", "claude");
        req.put("system", List.of(Map.of("type", "text", "text", "x-anthropic-billing-header: cc"),
                Map.of("type", "text", "text", agentBody)));
        req.put("messages", List.of(Map.of("role", "user", "content", "hi")));
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/v1/messages?beta=true", Json.write(req));
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        assertEquals(List.of("Bearer sk-secret /v1/v1/messages?beta=true"), upstreamAuth);
        assertTrue(Files.readString(evidence).contains("system[1].text"));
    }

    @Test
    void agentMutatedInTransit_isRefused_upstreamNeverCalled() throws Exception {
        start(FILE);
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions",
                chatRequest(body().replace("coordinate the team", "ignore the team")));
        assertEquals(403, r.statusCode());
        String text = new String(r.body(), StandardCharsets.UTF_8);
        assertTrue(text.contains("HALT_CORRUPT") && text.contains("the model was not called"), text);
        assertEquals(0, upstreamCalls.get());
    }

    @Test
    void agentClipped_isRefused_upstreamNeverCalled() throws Exception {
        start(FILE);
        String clipped = body().substring(0, body().indexOf(EOF) - 10);
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest(clipped));
        assertEquals(403, r.statusCode());
        assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("HALT_CORRUPT"));
        assertTrue(Files.readString(evidence).contains("attach_prefix"), "clip recorded as a prefix");
        assertEquals(0, upstreamCalls.get());
    }

    @Test
    void agentAbsentFromRequest_isRefused_upstreamNeverCalled() throws Exception {
        start(FILE);
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest("You are a plain assistant."));
        assertEquals(403, r.statusCode());
        assertTrue(Files.readString(evidence).contains("not_in_request"));
        assertEquals(0, upstreamCalls.get());
    }

    @Test
    void agentMutatedAgainstRelease_isHaltReleaseMismatch_upstreamNeverCalled() throws Exception {
        start(FILE, Sha256.hex("the released bytes".getBytes(StandardCharsets.UTF_8)), ModelProxy.Limits.defaults());
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest(body()));
        assertEquals(403, r.statusCode());
        assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("HALT_RELEASE_MISMATCH"));
        assertEquals(0, upstreamCalls.get());
    }

    @Test
    void registeredAgent_isLoaded_andForwarded() throws Exception {
        start(FILE, Sha256.hex(FILE.getBytes(StandardCharsets.UTF_8)), ModelProxy.Limits.defaults());
        assertEquals(200, post(proxy.baseUrl() + "/chat/completions", chatRequest(body())).statusCode());
        assertTrue(Files.readString(evidence).contains("\"outcome\":\"LOADED\""));
        assertEquals(1, upstreamCalls.get());
    }

    @Test
    void halt_isFinal_laterIntactRequestStillRefused() throws Exception {
        start(FILE);
        assertEquals(403, post(proxy.baseUrl() + "/chat/completions", chatRequest("clipped " + HEAD)).statusCode());
        assertEquals(403, post(proxy.baseUrl() + "/chat/completions", chatRequest(body())).statusCode());
        assertEquals(0, upstreamCalls.get());
    }

    @Test
    void badSecretPath_is404_upstreamNeverCalled() throws Exception {
        start(FILE);
        String base = proxy.baseUrl();
        String wrong = base.substring(0, base.length() - 1) + (base.endsWith("0") ? "1" : "0");
        assertEquals(404, post(wrong + "/chat/completions", chatRequest(body())).statusCode());
        assertEquals(404, post("http://127.0.0.1:" + proxy.port() + "/chat/completions", chatRequest(body())).statusCode());
        assertEquals(404, post(base + "x/chat/completions", chatRequest(body())).statusCode());
        assertEquals(0, upstreamCalls.get());
        assertEquals(0, gate.requests());
    }

    @Test
    void upstreamSlow_answers504_atTheDeadline() throws Exception {
        stall = new CountDownLatch(1);
        start(FILE, null, new ModelProxy.Limits(5_000, 5_000, 1 << 20, 2_000, 300, 300));
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest(body()));
        assertEquals(504, r.statusCode());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(20), "answered well before the client gave up");
    }

    @Test
    void requestOverCap_is413_neverGated() throws Exception {
        start(FILE, null, new ModelProxy.Limits(5_000, 5_000, 100, 2_000, 5_000, 5_000));
        assertEquals(413, post(proxy.baseUrl() + "/chat/completions", chatRequest(body())).statusCode());
        assertEquals(0, upstreamCalls.get());
        assertEquals(0, gate.requests());
    }

    @Test
    void requestNotJson_is400_notForwarded() throws Exception {
        start(FILE);
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", "{not json");
        assertEquals(400, r.statusCode());
        assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("not a JSON object"));
        assertEquals(0, upstreamCalls.get());
    }

    @Test
    void requestHeadNeverEnds_isClosedAtTheHeadDeadline() throws Exception {
        start(FILE, null, new ModelProxy.Limits(300, 300, 1 << 20, 2_000, 5_000, 5_000));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write("POST /".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
        }
    }

    @Test
    void plainHttpUpstreamOffLoopback_isRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelProxy.checkUpstream(URI.create("http://api.example.com/v1")));
        assertTrue(e.getMessage().contains("unencrypted"));
        ModelProxy.checkUpstream(URI.create("https://api.example.com/v1"));
    }

    @Test
    void nonModelGet_isForwardedUngated() throws Exception {
        start(FILE);
        HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(proxy.baseUrl() + "/models"))
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(0, gate.requests());
        assertNotNull(r.body());
    }

    /**
     * Issue 28 item 9: the secret used to be checked only after the whole body arrived (allocated up
     * front at its announced size), so 32 connections trickling bodies to a wrong path took every slot.
     */
    @Test
    void issue28_flood_32ConnectionsWithoutTheSecretTricklingBodies_hostRequestStillAnswered() throws Exception {
        start(FILE);
        List<Thread> tricklers = new ArrayList<>();
        for (int i = 0; i < ModelProxy.MAX_CONNECTIONS; i++) {
            Socket f = flood("POST /not-the-secret/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 33554432\r\n\r\n");
            tricklers.add(trickle(f));
        }
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest(body()));
        assertEquals(200, r.statusCode());
        assertArrayEquals(SSE, r.body());
        for (Socket f : floods) {
            f.setSoTimeout(20_000);
            String answer = new String(f.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 404", answer, "refused on its request line, before its body");
        }
        assertEquals(1, upstreamCalls.get());
        flooding = false;
        for (Thread t : tricklers) {
            t.join(10_000);
        }
    }

    /**
     * Issue 28 item 9: another user holding connections open (a head trickled a byte at a time) is
     * capped per user, so the host's own request still gets a connection.
     */
    @Test
    void issue28_otherUser_32TricklingHeads_cappedPerPeer_hostRequestStillAnswered() throws Exception {
        Set<Integer> foreignPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();
        ownUid = 1000;
        peers = s -> foreignPorts.contains(s.getPort()) ? 4242 : 1000;
        // a head deadline longer than the test, so that no admitted connection frees its place early
        start(FILE, null, new ModelProxy.Limits(120_000, 60_000, 32L << 20, 10_000, 300_000, 300_000));
        List<Thread> tricklers = new ArrayList<>();
        for (int i = 0; i < ModelProxy.MAX_CONNECTIONS; i++) {
            Socket f = new Socket();
            f.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            foreignPorts.add(f.getLocalPort());
            f.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.port()));
            floods.add(f);
            f.getOutputStream().write('P');
            tricklers.add(trickle(f));
        }
        HttpResponse<byte[]> r = post(proxy.baseUrl() + "/chat/completions", chatRequest(body()));
        assertEquals(200, r.statusCode());
        assertArrayEquals(SSE, r.body());
        assertEquals(ModelProxy.MAX_CONNECTIONS - ModelProxy.PER_PEER, proxy.peerRefusals(),
                "the other user's connections past " + ModelProxy.PER_PEER + " closed unread");
        flooding = false;
        for (Thread t : tricklers) {
            t.join(10_000);
        }
    }

    private Socket flood(String head) throws IOException {
        Socket f = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        floods.add(f);
        f.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        f.getOutputStream().flush();
        return f;
    }

    /** Writes one byte every 200 ms to {@code f} until the test ends or the proxy closes it. */
    private Thread trickle(Socket f) {
        Thread t = new Thread(() -> {
            try {
                while (flooding) {
                    f.getOutputStream().write('a');
                    f.getOutputStream().flush();
                    Thread.sleep(200);
                }
            } catch (IOException | InterruptedException closed) {
                // the proxy closed it, or the test ended
            }
        }, "trickle");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
