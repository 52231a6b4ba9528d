package dev.agentwarden.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.agentwarden.http.RequestHead.Limits;
import dev.agentwarden.http.RequestHead.Malformed;
import dev.agentwarden.http.RequestHead.Problem;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one request-head codec: grammar, limits, refusals that stop request smuggling, and reads under a deadline. */
class RequestHeadTest {
    private static final Limits LIMITS = new Limits(1024, 4, 128);

    private ServerSocket listener;
    private Socket client;
    private Socket served;

    @BeforeEach
    void connect() throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        served = listener.accept();
    }

    @AfterEach
    void close() throws IOException {
        client.close();
        served.close();
        listener.close();
    }

    // --- grammar

    @Test
    void parse_crlfHead_givesItsParts() throws Malformed {
        RequestHead h = parse("POST /dispatch/claude?x=1&token=ab%20c HTTP/1.1\r\nHost: a\r\nX-Two:  b c \t\r\n"
                + "x-TWO: later\r\nContent-Length:5\r\n\r\n");
        assertThat(h.method()).isEqualTo("POST");
        assertThat(h.target()).isEqualTo("/dispatch/claude?x=1&token=ab%20c");
        assertThat(h.version()).isEqualTo("HTTP/1.1");
        assertThat(h.path()).isEqualTo("/dispatch/claude");
        assertThat(h.query()).isEqualTo("x=1&token=ab%20c");
        assertThat(h.query("token")).as("not decoded").isEqualTo("ab%20c");
        assertThat(h.query("x")).isEqualTo("1");
        assertThat(h.query("tok")).isNull();
        assertThat(h.originForm()).isTrue();
        assertThat(h.header("host")).isEqualTo("a");
        assertThat(h.header("x-two")).as("names fold case; the first of a repeated header, trimmed").isEqualTo("b c");
        assertThat(h.headers()).containsOnlyKeys("host", "x-two", "content-length");
        assertThat(h.contentLength()).isEqualTo(5);
    }

    @Test
    void parse_bareLineFeeds_areLineEnds() throws Malformed {
        RequestHead h = parse("GET / HTTP/1.0\nAuthorization: Bearer t\n\n");
        assertThat(h.version()).isEqualTo("HTTP/1.0");
        assertThat(h.header("authorization")).isEqualTo("Bearer t");
        assertThat(h.query()).isNull();
        assertThat(h.contentLength()).as("absent: no body").isZero();
    }

    @Test
    void parse_absoluteTarget_isReadButNotOriginForm() throws Malformed {
        RequestHead h = parse("GET http://127.0.0.1/x HTTP/1.1\r\n\r\n");
        assertThat(h.originForm()).isFalse();
        assertThat(h.target()).isEqualTo("http://127.0.0.1/x");
    }

    @Test
    void end_findsTheEmptyLine_inEveryLineEnding() {
        assertThat(end("GET / HTTP/1.1\r\nA: b\r\n\r\nBODY")).isEqualTo(24);
        assertThat(end("GET / HTTP/1.1\nA: b\n\nBODY")).isEqualTo(21);
        assertThat(end("GET / HTTP/1.1\nA: b\n\r\nBODY")).isEqualTo(22);
        assertThat(end("GET / HTTP/1.1\r\nA: b\r\n\r")).as("not arrived").isEqualTo(-1);
        assertThat(end("GET / HTTP/1.1\r\nA: b\r\n")).isEqualTo(-1);
        byte[] a = "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(RequestHead.end(a, 14, a.length)).as("searching on from where the last search left").isEqualTo(18);
    }

    @Test
    void parse_malformedRequestLines_areRefused() {
        for (String line : new String[] {"POST /x HTTP/1.1 extra", "POST /x", " /x HTTP/1.1", "POST  /x HTTP/1.1",
                "POST /x HTTP/2.0", "POST /x HTTP/1", "", "POST /x\tHTTP/1.1", "POST /a\rb HTTP/1.1", "POST /x HTTP/1.1 "}) {
            assertThat(problem(line + "\r\n\r\n")).as("request line '%s'", line).isEqualTo(Problem.BAD_REQUEST_LINE);
        }
    }

    @Test
    void parse_malformedHeaders_areRefused() {
        assertThat(problem("GET / HTTP/1.1\r\nno colon here\r\n\r\n")).isEqualTo(Problem.BAD_HEADER);
        assertThat(problem("GET / HTTP/1.1\r\n: empty name\r\n\r\n")).isEqualTo(Problem.BAD_HEADER);
        assertThat(problem("GET / HTTP/1.1\r\nA\u0000b: c\r\n\r\n")).as("a control byte in a name").isEqualTo(Problem.BAD_HEADER);
        assertThat(problem("GET / HTTP/1.1\r\nA: b\u0001c\r\n\r\n")).as("a control byte in a value").isEqualTo(Problem.BAD_HEADER);
        assertThat(problem("GET / HTTP/1.1\r\nA: b\rc\r\n\r\n")).as("a bare CR in a value").isEqualTo(Problem.BAD_HEADER);
    }

    // --- smuggling: every way two readers could disagree on where the body ends is refused

    @Test
    void parse_whitespaceBeforeTheColon_isRefused() {
        assertThat(problem("POST / HTTP/1.1\r\nContent-Length : 5\r\n\r\n")).isEqualTo(Problem.BAD_HEADER);
        assertThat(problem("POST / HTTP/1.1\r\nTransfer-Encoding\t: chunked\r\n\r\n")).isEqualTo(Problem.BAD_HEADER);
    }

    @Test
    void parse_obsFold_isRefused() {
        assertThat(problem("POST / HTTP/1.1\r\nX-A: b\r\n c\r\n\r\n")).isEqualTo(Problem.OBS_FOLD);
        assertThat(problem("POST / HTTP/1.1\r\nX-A: b\r\n\tContent-Length: 5\r\n\r\n")).isEqualTo(Problem.OBS_FOLD);
        assertThat(problem("POST / HTTP/1.1\n Content-Length: 5\n\n")).as("a fold right after the request line")
                .isEqualTo(Problem.OBS_FOLD);
    }

    @Test
    void parse_contentLengthTwice_isRefused_evenWhenEqual() {
        assertThat(problem("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"))
                .isEqualTo(Problem.DUPLICATE_CONTENT_LENGTH);
        assertThat(problem("POST / HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n"))
                .isEqualTo(Problem.DUPLICATE_CONTENT_LENGTH);
    }

    @Test
    void parse_transferEncodingTwice_orWithContentLength_isRefused() {
        assertThat(problem("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n"))
                .isEqualTo(Problem.DUPLICATE_TRANSFER_ENCODING);
        assertThat(problem("POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"))
                .isEqualTo(Problem.LENGTH_WITH_TRANSFER_ENCODING);
        assertThat(problem("POST / HTTP/1.1\r\nTRANSFER-ENCODING: chunked\r\nContent-Length: 5\r\n\r\n"))
                .isEqualTo(Problem.LENGTH_WITH_TRANSFER_ENCODING);
    }

    @Test
    void contentLength_onlyPlainDigits() throws Malformed {
        for (String v : new String[] {"5, 5", "+5", "-1", "0x10", "", "1 2", "1234567890123456789"}) {
            assertThat(parse("POST / HTTP/1.1\r\nContent-Length: " + v + "\r\n\r\n").contentLength()).as("'%s'", v).isEqualTo(-1);
        }
        assertThat(parse("POST / HTTP/1.1\r\nContent-Length: 123456789012345678\r\n\r\n").contentLength())
                .isEqualTo(123456789012345678L);
        assertThat(RequestHead.digits("9223372036854775808", 19, 0)).as("past a long").isEqualTo(-1);
        assertThat(RequestHead.digits("9223372036854775807", 19, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(RequestHead.digits(null, 19, 7)).isEqualTo(7);
    }

    // --- limits

    @Test
    void parse_headerCount_isCapped() throws Malformed {
        String four = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n";
        assertThat(parse(four + "\r\n").headers()).hasSize(4);
        Malformed e = catchThrowableOfType(() -> parse(four + "E: 5\r\n\r\n"), Malformed.class);
        assertThat(e.problem).isEqualTo(Problem.TOO_MANY_HEADERS);
        assertThat(e.problem.status).isEqualTo(431);
    }

    @Test
    void parse_lineLength_isCapped() throws Malformed {
        String at = "X: " + "v".repeat(125);
        assertThat(parse("GET / HTTP/1.1\r\n" + at + "\r\n\r\n").header("x")).hasSize(125);
        assertThat(problem("GET / HTTP/1.1\r\n" + at + "v\r\n\r\n")).isEqualTo(Problem.LINE_TOO_LONG);
        assertThat(problem("GET /" + "p".repeat(128) + " HTTP/1.1\r\n\r\n")).as("the request line too").isEqualTo(Problem.LINE_TOO_LONG);
    }

    @Test
    void parse_headOverTheCap_isRefused() {
        Limits small = new Limits(32, 4, 128);
        byte[] a = "GET / HTTP/1.1\r\nHost: example.org\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        Malformed e = catchThrowableOfType(() -> RequestHead.parse(a, a.length, small), Malformed.class);
        assertThat(e.problem).isEqualTo(Problem.TOO_LARGE);
    }

    @Test
    void limits_tooSmallForAnyRequest_areRefused() {
        assertThatThrownBy(() -> new Limits(8, 4, 128)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Limits(1024, 0, 128)).isInstanceOf(IllegalArgumentException.class);
    }

    // --- reading off a socket

    @Test
    void read_headInPieces_keepsTheBytesAfterIt() throws Exception {
        OutputStream out = client.getOutputStream();
        out.write("POST /x HTTP/1.1\r\nContent-Le".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(50);
                out.write("ngth: 4\r\n\r\nBODY".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException | InterruptedException e) {
                // the read fails and says so
            }
        });
        later.start();
        RequestHead h = RequestHead.read(served, LIMITS, deadline(10_000), null);
        later.join(10_000);
        assertThat(h.contentLength()).isEqualTo(4);
        int rest = h.rest().length;
        byte[] body = new byte[4];
        System.arraycopy(h.rest(), 0, body, 0, rest);
        served.setSoTimeout(10_000);
        int n = rest;
        while (n < 4) {
            n += served.getInputStream().read(body, n, 4 - n);
        }
        assertThat(new String(body, StandardCharsets.US_ASCII)).isEqualTo("BODY");
    }

    @Test
    void read_headLargerThanTheFirstBuffer_isRead() throws Exception {
        Limits big = new Limits(64 * 1024, 4, 32 * 1024);
        String pad = "p".repeat(20_000);
        client.getOutputStream().write(("GET / HTTP/1.1\r\nX-Pad: " + pad + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(RequestHead.read(served, big, deadline(10_000), null).header("x-pad")).isEqualTo(pad);
    }

    @Test
    void read_headOverTheCap_isTooLarge() throws Exception {
        client.getOutputStream().write(("GET / HTTP/1.1\r\n" + "X: y\r\n".repeat(200)).getBytes(StandardCharsets.US_ASCII));
        assertThat(readProblem(LIMITS, null)).isEqualTo(Problem.TOO_LARGE);
    }

    @Test
    void read_clientClosesMidHead_isClosed() throws Exception {
        client.getOutputStream().write("GET / HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
        client.shutdownOutput();
        assertThat(readProblem(LIMITS, null)).isEqualTo(Problem.CLOSED);
        assertThat(Problem.CLOSED.status).as("nobody to answer").isZero();
    }

    @Test
    void read_silentClient_timesOutAtTheDeadline() throws Exception {
        Malformed e = catchThrowableOfType(() -> RequestHead.read(served, LIMITS, deadline(200), null), Malformed.class);
        assertThat(e.problem).isEqualTo(Problem.TIMEOUT);
        assertThat(e.problem.status).isEqualTo(408);
    }

    /** A client that trickles a byte now and then resets no per-read timeout: the caller's one deadline holds. */
    @Test
    void read_slowloris_timesOutAtTheDeadline_notAtTheLastByte() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread trickle = new Thread(() -> {
            try {
                OutputStream out = client.getOutputStream();
                byte[] head = ("GET / HTTP/1.1\r\n" + "X: y\r\n".repeat(100)).getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < head.length && !stop.get(); i++) {
                    out.write(head[i]);
                    out.flush();
                    Thread.sleep(20);
                }
            } catch (IOException | InterruptedException e) {
                // the server side gave up, as it should
            }
        });
        trickle.start();
        try {
            long deadline = deadline(500);
            Malformed e = catchThrowableOfType(() -> RequestHead.read(served, LIMITS, deadline, null), Malformed.class);
            assertThat(e.problem).isEqualTo(Problem.TIMEOUT);
            assertThat(trickle.isAlive()).as("the read ended while the client was still sending").isTrue();
        } finally {
            stop.set(true);
            trickle.join(10_000);
        }
    }

    @Test
    void read_requestLineCheck_refusesBeforeTheHeadEnds() throws Exception {
        client.getOutputStream().write("POST /wrong/path HTTP/1.1\r\nContent-Len".getBytes(StandardCharsets.US_ASCII));
        String[] seen = new String[2];
        IOException e = catchThrowableOfType(() -> RequestHead.read(served, LIMITS, deadline(30_000), (method, target) -> {
            seen[0] = method;
            seen[1] = target;
            throw new IOException("not found");
        }), IOException.class);
        assertThat(e).hasMessage("not found");
        assertThat(seen).containsExactly("POST", "/wrong/path");
    }

    @Test
    void read_requestLineCheck_malformedLine_isRefusedBeforeTheHeadEnds() throws Exception {
        client.getOutputStream().write("POST /x HTTP/9\r\nHo".getBytes(StandardCharsets.US_ASCII));
        assertThat(readProblem(LIMITS, (m, t) -> { })).isEqualTo(Problem.BAD_REQUEST_LINE);
    }

    private Problem readProblem(Limits limits, RequestHead.RequestLineCheck check) {
        Malformed e = catchThrowableOfType(() -> RequestHead.read(served, limits, deadline(30_000), check), Malformed.class);
        assertThat(e).as("refused").isNotNull();
        return e.problem;
    }

    private static long deadline(long ms) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    }

    private static RequestHead parse(String head) throws Malformed {
        byte[] a = head.getBytes(StandardCharsets.ISO_8859_1);
        int end = RequestHead.end(a, 0, a.length);
        assertThat(end).as("head end of %s", head).isEqualTo(a.length);
        return RequestHead.parse(a, end, LIMITS);
    }

    private static Problem problem(String head) {
        Malformed e = catchThrowableOfType(() -> parse(head), Malformed.class);
        assertThat(e).as("refused: %s", head).isNotNull();
        return e.problem;
    }

    private static int end(String s) {
        byte[] a = s.getBytes(StandardCharsets.ISO_8859_1);
        return RequestHead.end(a, 0, a.length);
    }
}
