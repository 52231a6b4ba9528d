package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@link Front} reads a request head: split by hand (no regular expression), into a buffer
 * that starts small and grows up to {@link Front#HEAD_BYTES}; heads that arrive in pieces, heads
 * larger than the first buffer, pipelined requests and heads over the cap.
 */
class FrontParsingTest {
    private static final String TOKEN = "c".repeat(64);
    private static final String NO_VERIFY = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";

    @TempDir
    Path tmp;
    private WardenServer server;

    @BeforeEach
    void start() throws IOException {
        Map<String, String> env = Map.of("WARDEN_CACHE_DIR", Files.createDirectories(tmp.resolve("cache")).toString(),
                "HOME", tmp.toString(), "CLAUDE_PROJECT_DIR", Files.createDirectories(tmp.resolve("project")).toString());
        server = WardenServer.start(0, null, null, TOKEN, 2, env, MutableClock.at("2026-05-04T10:00:00Z"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void parse_headersByHand_sameAsTheHttpGrammar() {
        Front.Head h = parse("POST /dispatch/claude?x=1 HTTP/1.1\r\nHost: a\r\nX-Two:  b c \r\nx-two: later\r\n"
                + "Content-Length:5\r\n\r\n");
        assertThat(h.method()).isEqualTo("POST");
        assertThat(h.path()).isEqualTo("/dispatch/claude");
        assertThat(h.header("host")).isEqualTo("a");
        assertThat(h.header("x-two")).as("the first of a repeated header, stripped").isEqualTo("b c");
        assertThat(h.header("content-length")).isEqualTo("5");
    }

    @Test
    void parse_bareLineFeeds_areLineEnds() {
        Front.Head h = parse("POST /forward HTTP/1.0\nAuthorization: Bearer t\n\n");
        assertThat(h.path()).isEqualTo("/forward");
        assertThat(h.header("authorization")).isEqualTo("Bearer t");
    }

    @Test
    void parse_malformedHeads_areNotHttp() {
        assertThat(parse("POST /x HTTP/1.1 extra\r\n\r\n")).as("three spaces").isNull();
        assertThat(parse("POST /x\r\n\r\n")).as("no version").isNull();
        assertThat(parse(" /x HTTP/1.1\r\n\r\n")).as("no method").isNull();
        assertThat(parse("POST x HTTP/1.1\r\n\r\n")).as("path not absolute").isNull();
        assertThat(parse("POST /x HTTP/2.0\r\n\r\n")).as("not HTTP/1").isNull();
        assertThat(parse("POST /x HTTP/1.1\r\nno colon here\r\nHost: a\r\n\r\n")).as("a header without ':'").isNull();
        assertThat(parse("POST /x HTTP/1.1\r\n: empty name\r\n\r\n")).as("an empty header name").isNull();
        assertThat(parse("\n\n")).as("an empty request line").isNull();
    }

    @Test
    void dispatch_headSentByteByByte_isAnswered() throws Exception {
        try (Socket s = socket()) {
            byte[] request = request(NO_VERIFY, "");
            OutputStream out = s.getOutputStream();
            for (byte b : request) {
                out.write(b);
                out.flush();
            }
            assertThat(HttpAnswer.read(s.getInputStream())).startsWith("HTTP/1.1 200 ").contains("\"permissionDecision\":\"deny\"");
        }
    }

    @Test
    void dispatch_headLargerThanTheFirstBuffer_isAnsweredOnTheSameConnectionTwice() throws Exception {
        String padding = "X-Padding: " + "p".repeat(Front.FIRST_HEAD_BYTES * 3) + "\r\n";
        try (Socket s = socket()) {
            for (int i = 0; i < 2; i++) {
                s.getOutputStream().write(request(NO_VERIFY, padding));
                s.getOutputStream().flush();
                assertThat(HttpAnswer.read(s.getInputStream())).startsWith("HTTP/1.1 200 ").contains("Connection: keep-alive")
                        .contains("\"permissionDecision\":\"deny\"");
            }
        }
    }

    @Test
    void dispatch_headOverTheCap_is431() throws Exception {
        String padding = "X-Padding: " + "p".repeat(Front.HEAD_BYTES) + "\r\n";
        try (Socket s = socket()) {
            s.getOutputStream().write(request(NO_VERIFY, padding));
            s.getOutputStream().flush();
            assertThat(HttpAnswer.read(s.getInputStream())).startsWith("HTTP/1.1 431 ").contains("head_too_large");
        }
    }

    @Test
    void dispatch_emptyRequestLine_is400_andTheServerStillAnswers() throws Exception {
        try (Socket s = socket()) {
            s.getOutputStream().write("\n\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            assertThat(HttpAnswer.read(s.getInputStream())).startsWith("HTTP/1.1 400 ").contains("bad_request");
        }
        try (Socket s = socket()) {
            s.getOutputStream().write(request(NO_VERIFY, ""));
            s.getOutputStream().flush();
            assertThat(HttpAnswer.read(s.getInputStream())).as("the front still serves").startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void dispatch_pipelinedRequests_firstAnsweredThenClosed() throws Exception {
        byte[] one = request(NO_VERIFY, "");
        byte[] two = new byte[one.length * 2];
        System.arraycopy(one, 0, two, 0, one.length);
        System.arraycopy(one, 0, two, one.length, one.length);
        try (Socket s = socket()) {
            s.getOutputStream().write(two);
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            assertThat(HttpAnswer.read(in)).startsWith("HTTP/1.1 200 ").contains("Connection: close")
                    .contains("\"permissionDecision\":\"deny\"");
            assertThat(in.read()).as("end of stream: a pipelined request is not read as the next one").isEqualTo(-1);
        }
    }

    private static Front.Head parse(String head) {
        byte[] b = head.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buf = ByteBuffer.allocate(b.length).put(b);
        int end = Front.headEnd(buf);
        assertThat(end).as("head end of %s", head).isEqualTo(b.length);
        return Front.parse(buf, end);
    }

    private Socket socket() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        s.setSoTimeout(30_000);
        s.setTcpNoDelay(true);
        return s;
    }

    private static byte[] request(String body, String extraHeaders) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        byte[] head = ("POST /dispatch/claude/PreToolUse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN
                + "\r\n" + extraHeaders + "Content-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + b.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(b, 0, all, head.length, b.length);
        return all;
    }
}
