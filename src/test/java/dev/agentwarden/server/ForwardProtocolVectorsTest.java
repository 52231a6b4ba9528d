package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The resident's side of the forward protocol's shared vectors ({@link ForwardVectors},
 * {@code docs/forward-protocol.md}); {@code ForwardProtocolIT} runs the same vectors through both clients.
 * Every request vector's bytes parse into its argv, environment, working directory, stdin deadline and
 * payload; every malformed body is refused naming its problem; the resident's writer produces the
 * answer vectors' exact bytes; and where the clients apply the fail mode themselves (the resident took
 * the event and never answered), the JVM's own fail mode ({@code WARDEN_FAIL_MODE} on a manifest it
 * cannot use) answers with the same verdict: the same "no opinion" when open, a refusal when closed.
 */
class ForwardProtocolVectorsTest {
    private static final List<String> HARNESS_ENV = List.of("ePATH=/usr/bin:/bin", "eHOME=/nonexistent");
    private static final List<String> PROCESS = List.of("u0022", "n0",
            "lLimit                     Soft Limit           Hard Limit           Units     ",
            "lMax open files            1024                 4096                 files     ");

    static List<ForwardVectors.Request> requests() {
        return ForwardVectors.requests();
    }

    static List<ForwardVectors.Malformed> malformed() {
        return ForwardVectors.malformed();
    }

    static List<ForwardVectors.Answer> writtenByTheResident() {
        return ForwardVectors.answers().stream().filter(a -> a.residentWrites() != null || a.residentRefuses() != null).toList();
    }

    static List<ForwardVectors.Answer> failModes() {
        return ForwardVectors.answers().stream().filter(a -> a.resident().equals("hold")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void request_parsesIntoWhatTheClientRead(ForwardVectors.Request v) throws Exception {
        byte[] body = ForwardVectors.body(v.records(), v.payload(), "/", HARNESS_ENV, PROCESS);
        Map<String, String> env = new LinkedHashMap<>();
        long cut = -1;
        for (String r : v.records()) {
            List<String> expanded = r.equals("{harness-env}") ? HARNESS_ENV : List.of(r);
            for (String x : expanded) {
                if (x.startsWith("e")) {
                    env.put(x.substring(1, x.indexOf('=')), x.substring(x.indexOf('=') + 1));
                } else if (x.startsWith("t")) {
                    cut = Long.parseLong(x.substring(1));
                }
            }
        }

        ByteArrayInputStream in = new ByteArrayInputStream(body);
        ForwardRequest read = ForwardRequest.read(in);
        ForwardRequest.Framed framed = ForwardRequest.frame(body);

        for (ForwardRequest r : List.of(read, framed.request())) {
            assertThat(r.argv()).isEqualTo(v.argv());
            assertThat(r.env()).isEqualTo(env);
            assertThat(r.workingDir()).isEqualTo(Path.of("/"));
            assertThat(r.stdinCutMs()).isEqualTo(cut);
        }
        assertThat(in.readAllBytes()).as("the payload, to the end of the body").isEqualTo(v.payload());
        assertThat(body.length - framed.payloadAt()).isEqualTo(v.payload().length);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformed_isRefusedNamingTheProblem(ForwardVectors.Malformed v) {
        assertThatThrownBy(() -> ForwardRequest.read(new ByteArrayInputStream(v.body())))
                .isInstanceOf(ForwardRequest.BadForward.class).hasMessageContaining(v.error());
        assertThatThrownBy(() -> ForwardRequest.frame(v.body()))
                .isInstanceOf(ForwardRequest.BadForward.class).hasMessageContaining(v.error());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writtenByTheResident")
    void answer_residentWritesTheVectorsBytes(ForwardVectors.Answer v) {
        Reply reply;
        if (v.residentWrites() != null) {
            byte[] out = ((String) v.residentWrites().get("stdout")).getBytes(StandardCharsets.UTF_8);
            byte[] err = ((String) v.residentWrites().get("stderr")).getBytes(StandardCharsets.UTF_8);
            byte[] body = new byte[out.length + err.length];
            System.arraycopy(out, 0, body, 0, out.length);
            System.arraycopy(err, 0, body, out.length, err.length);
            reply = new Reply(200, body, ((Number) v.residentWrites().get("exit")).intValue(), "", out.length);
        } else {
            reply = Reply.refusal(((Number) v.residentRefuses().get("status")).intValue(),
                    (String) v.residentRefuses().get("error"), (String) v.residentRefuses().get("message"));
        }
        assertThat(new String(reply.bytes(), StandardCharsets.UTF_8)).isEqualTo(new String(v.answer(), StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failModes")
    void failMode_theJvmsOwnAnswerHasTheClientsVerdict(ForwardVectors.Answer v, @TempDir Path dir) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.toString());
        env.put("XDG_STATE_HOME", dir.resolve("state").toString());
        for (String[] e : v.env()) {
            env.put(e[0], e[1]);
        }
        List<String> argv = new ArrayList<>(v.argv());
        argv.addAll(List.of("--manifest", dir.resolve("missing.yaml").toString(), "--project-dir",
                Files.createDirectories(dir.resolve("project")).toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = dev.agentwarden.testing.DispatchCall.run(argv.toArray(String[]::new), new ByteArrayInputStream(v.stdin()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, Clock.systemUTC());

        String stdout = out.toString(StandardCharsets.UTF_8);
        boolean closed = "closed".equals(env.get("WARDEN_FAIL_MODE"));
        if (closed) {
            assertThat(code == 2 || stdout.contains("Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)"))
                    .as("a refusal: exit %d, stdout %s", code, stdout).isTrue();
            assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("failing open");
        } else {
            assertThat(code).isEqualTo(v.expect().exit());
            assertThat(stdout).as("the same \"no opinion\"").isEqualTo(new String(v.expect().stdout(), StandardCharsets.UTF_8));
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("failing open");
        }
    }
}
