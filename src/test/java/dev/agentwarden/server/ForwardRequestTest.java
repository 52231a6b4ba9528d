package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.server.ForwardRequest.BadForward;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code POST /forward} body ({@link ForwardRequest}): what a well-formed frame reads as, where
 * it leaves the stream, its limits, and the message each malformed frame is refused with.
 */
class ForwardRequestTest {
    private static final Path DIR = Path.of("/home/dev/project");
    private static final List<String> ARGV = List.of("dispatch", "--host", "claude");
    /** Starts with NUL and holds every byte value: the payload is bytes, not records. */
    private static final byte[] PAYLOAD = payload();

    @Test
    void read_wellFormedFrame_givesArgvDirAndEnv() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/bin:/bin");
        env.put("OPTS", "a=b=c");
        env.put("GREETING", "grüß dich ✓ 日本");
        env.put("EMPTY", "");
        byte[] body = ForwardFrame.body(ForwardFrame.records(DIR, env, "dispatch", "--host", "claude",
                "--manifest", "two words=.yaml"), PAYLOAD);

        ForwardRequest r = ForwardRequest.read(new ByteArrayInputStream(body));

        assertThat(r.argv()).containsExactly("dispatch", "--host", "claude", "--manifest", "two words=.yaml");
        assertThat(r.workingDir()).isEqualTo(DIR);
        assertThat(r.env()).isEqualTo(env);
    }

    @Test
    void read_directoryThroughASymlink_isThePhysicalPathAsTheLaunchersJvmWouldSee(@TempDir Path tmp) throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);

        ForwardRequest r = ForwardRequest.read(new ByteArrayInputStream(ForwardFrame.body(
                ForwardFrame.records(link, Map.of(), "dispatch", "--host", "claude"), PAYLOAD)));

        assertThat(r.workingDir()).isEqualTo(real.toRealPath());
    }

    @Test
    void read_wellFormedFrame_leavesStreamAtFirstPayloadByte() throws IOException {
        InputStream in = new ByteArrayInputStream(ForwardFrame.body(
                ForwardFrame.records(DIR, Map.of("A", "1"), "dispatch", "--host", "claude"), PAYLOAD));

        ForwardRequest.read(in);

        assertThat(in.readAllBytes()).isEqualTo(PAYLOAD);
    }

    @Test
    void read_emptyPayload_streamAtEnd() throws IOException {
        InputStream in = new ByteArrayInputStream(ForwardFrame.body(
                ForwardFrame.records(DIR, Map.of(), "dispatch"), new byte[0]));

        ForwardRequest r = ForwardRequest.read(in);

        assertThat(r.argv()).containsExactly("dispatch");
        assertThat(r.env()).isEmpty();
        assertThat(in.read()).isEqualTo(-1);
    }

    @Test
    void read_recordsInAnyOrder_argvKeepsItsOrder() throws IOException {
        List<String> records = List.of(ForwardRequest.MAGIC, "eB=2", "adispatch", "eA=1", "a--host",
                "d" + DIR, "aclaude");

        ForwardRequest r = ForwardRequest.read(new ByteArrayInputStream(ForwardFrame.body(records, PAYLOAD)));

        assertThat(r.argv()).containsExactly("dispatch", "--host", "claude");
        assertThat(r.env()).containsOnly(Map.entry("B", "2"), Map.entry("A", "1"));
        assertThat(r.workingDir()).isEqualTo(DIR);
    }

    @Test
    void read_malformedUtf8_becomesReplacementCharacter() throws IOException {
        List<byte[]> records = new ArrayList<>();
        for (String r : ForwardFrame.records(DIR, Map.of(), "dispatch")) {
            records.add(r.getBytes(StandardCharsets.UTF_8));
        }
        records.add(new byte[] {'e', 'B', 'A', 'D', '=', (byte) 0xC3, '(', (byte) 0xFF});

        ForwardRequest r = ForwardRequest.read(new ByteArrayInputStream(ForwardFrame.rawBody(records, PAYLOAD)));

        assertThat(r.env()).containsExactly(Map.entry("BAD", "\uFFFD(\uFFFD"));
    }

    @Test
    void read_atEveryLimit_accepted() throws IOException {
        List<String> records = new ArrayList<>(List.of(ForwardRequest.MAGIC, "d" + DIR));
        List<String> argv = new ArrayList<>(List.of("dispatch"));
        while (argv.size() < ForwardRequest.MAX_ARGS) {
            argv.add("arg" + argv.size());
        }
        argv.forEach(a -> records.add("a" + a));
        String longest = "eLONG=" + "x".repeat(ForwardRequest.MAX_RECORD_BYTES - "eLONG=".length());
        records.add(longest);
        // Every record after the magic counts, the empty one that ends them included.
        for (int i = 0; records.size() - 1 < ForwardRequest.MAX_RECORDS - 1; i++) {
            records.add("eV" + i + "=" + i);
        }
        InputStream in = new ByteArrayInputStream(ForwardFrame.body(records, PAYLOAD));

        ForwardRequest r = ForwardRequest.read(in);

        assertThat(r.argv()).hasSize(ForwardRequest.MAX_ARGS);
        assertThat(r.env().get("LONG")).hasSize(ForwardRequest.MAX_RECORD_BYTES - "eLONG=".length());
        assertThat(in.readAllBytes()).isEqualTo(PAYLOAD);
    }

    static Stream<Arguments> rejections() {
        List<String> valid = ForwardFrame.records(DIR, Map.of("A", "1"), "dispatch", "--host", "claude");
        String tooLongValue = "x".repeat(70);
        return Stream.of(
                Arguments.of("emptyBody", new byte[0],
                        "the body ends inside the records (no empty record before the payload)"),
                Arguments.of("noMagic", ForwardFrame.body(valid.subList(1, valid.size()), PAYLOAD),
                        "the body does not start with the record warden-forward/1"),
                Arguments.of("wrongMagic", ForwardFrame.body(replace(valid, 0, "warden-forward/2"), PAYLOAD),
                        "the body does not start with the record warden-forward/1"),
                Arguments.of("noEmptyRecord", ForwardFrame.unterminated(valid),
                        "the body ends inside the records (no empty record before the payload)"),
                Arguments.of("endsInsideARecord", "warden-forward/1\0d/home/de".getBytes(StandardCharsets.UTF_8),
                        "the body ends inside the records (no empty record before the payload)"),
                Arguments.of("noWorkingDir", ForwardFrame.body(without(valid, 1), PAYLOAD),
                        "no working-directory record"),
                Arguments.of("twoWorkingDirs", ForwardFrame.body(with(valid, "d" + DIR), PAYLOAD),
                        "two working-directory records"),
                Arguments.of("relativeWorkingDir", ForwardFrame.body(replace(valid, 1, "dproject/sub"), PAYLOAD),
                        "working directory 'project/sub' is not an absolute path"),
                Arguments.of("emptyWorkingDir", ForwardFrame.body(replace(valid, 1, "d"), PAYLOAD),
                        "working directory '' is not an absolute path"),
                Arguments.of("unknownRecordKind", ForwardFrame.body(with(valid, "xfoo"), PAYLOAD),
                        "unknown record kind 'x'"),
                Arguments.of("envWithoutName", ForwardFrame.body(with(valid, "e=x"), PAYLOAD),
                        "environment record without NAME=: '=x'"),
                Arguments.of("envWithoutEquals", ForwardFrame.body(with(valid, "enovalue"), PAYLOAD),
                        "environment record without NAME=: 'novalue'"),
                Arguments.of("envWithoutEquals_clipped", ForwardFrame.body(with(valid, "e" + tooLongValue), PAYLOAD),
                        "environment record without NAME=: '" + "x".repeat(60) + "...'"),
                Arguments.of("noArgs", ForwardFrame.body(ForwardFrame.records(DIR, Map.of()), PAYLOAD),
                        "the arguments must start with 'dispatch'"),
                Arguments.of("argsNotStartingWithDispatch",
                        ForwardFrame.body(ForwardFrame.records(DIR, Map.of(), "serve", "dispatch"), PAYLOAD),
                        "the arguments must start with 'dispatch'"),
                Arguments.of("tooManyArgs", ForwardFrame.body(ForwardFrame.records(DIR, Map.of(),
                        args(ForwardRequest.MAX_ARGS + 1)), PAYLOAD), "more than 64 arguments"),
                Arguments.of("recordTooLong", ForwardFrame.body(with(valid,
                        "eLONG=" + "x".repeat(ForwardRequest.MAX_RECORD_BYTES - "eLONG=".length() + 1)), PAYLOAD),
                        "a record is longer than 262144 bytes"),
                Arguments.of("tooManyRecords", ForwardFrame.body(ForwardFrame.records(DIR, manyVariables(
                        ForwardRequest.MAX_RECORDS + 1), "dispatch"), PAYLOAD),
                        "more than 10000 records before the payload"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void read_malformedFrame_namesTheProblem(String name, byte[] body, String message) {
        assertThatThrownBy(() -> ForwardRequest.read(new ByteArrayInputStream(body)))
                .isInstanceOf(BadForward.class)
                .hasMessage(message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void frame_malformedFrame_namesTheProblemAsTheStreamReadDoes(String name, byte[] body, String message) {
        assertThatThrownBy(() -> ForwardRequest.frame(body))
                .isInstanceOf(BadForward.class)
                .hasMessage(message);
    }

    @Test
    void frame_wellFormedFrame_readsAsTheStreamDoes_andFindsThePayload() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/bin:/bin");
        env.put("GREETING", "grüß dich ✓ 日本");
        env.put("EMPTY", "");
        List<String> records = new ArrayList<>(ForwardFrame.records(DIR, env, "dispatch", "--host", "claude"));
        records.add("u0022");
        records.add("t300");
        byte[] body = ForwardFrame.body(records, PAYLOAD);

        ForwardRequest.Framed framed = ForwardRequest.frame(body);
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        ForwardRequest streamed = ForwardRequest.read(in);

        assertThat(framed.request().argv()).isEqualTo(streamed.argv());
        assertThat(framed.request().env()).isEqualTo(env).isEqualTo(streamed.env());
        assertThat(framed.request().workingDir()).isEqualTo(streamed.workingDir());
        assertThat(framed.request().stdinCutMs()).isEqualTo(300);
        assertThat(framed.payloadAt()).isEqualTo(body.length - in.available());
        assertThat(java.util.Arrays.copyOfRange(body, framed.payloadAt(), body.length)).isEqualTo(PAYLOAD);
    }

    /**
     * Every forwarded event is decoded on the resident's hot path, under C1: a regular expression
     * there (String.matches, split) is compiled again for each event and each limits line, which cost
     * about 0.2 ms an event.
     */
    @Test
    void forwardedEventDecode_compilesNoRegularExpression() throws IOException {
        List<String> found = new ArrayList<>();
        for (Class<?> c : new Class<?>[] {ForwardRequest.class, ProcessAttributes.class}) {
            String bytes;
            try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
                bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            }
            for (String f : new String[] {"java/util/regex", "matches", "split", "replaceAll", "replaceFirst"}) {
                if (bytes.contains(f)) {
                    found.add(c.getSimpleName() + " uses " + f);
                }
            }
        }
        assertThat(found).isEmpty();
    }

    @Test
    void read_stdinDeadlineRecord_payloadThenTheTimeoutAJvmWouldMeet() throws IOException {
        List<String> records = new ArrayList<>(ForwardFrame.records(Path.of("/tmp"), Map.of(), "dispatch", "--host", "claude"));
        records.add("t300");
        ByteArrayInputStream in = new ByteArrayInputStream(ForwardFrame.body(records, "{\"a\"".getBytes(StandardCharsets.UTF_8)));

        ForwardRequest r = ForwardRequest.read(in);
        InputStream stdin = r.stdin(in);

        assertThat(r.stdinCutMs()).isEqualTo(300);
        assertThat(new String(stdin.readNBytes(4), StandardCharsets.UTF_8)).isEqualTo("{\"a\"");
        assertThatThrownBy(stdin::read).isInstanceOf(IOException.class)
                .hasMessage("stdin still open after 300 ms (WARDEN_STDIN_TIMEOUT_MS)");
    }

    @Test
    void read_noStdinDeadlineRecord_stdinIsThePayload() throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(ForwardFrame.body(
                ForwardFrame.records(Path.of("/tmp"), Map.of(), "dispatch"), new byte[] {'x'}));
        ForwardRequest r = ForwardRequest.read(in);
        assertThat(r.stdinCutMs()).isEqualTo(-1);
        assertThat(r.stdin(in).readAllBytes()).containsExactly('x');
    }

    @Test
    void caller_isTheLauncher() throws IOException {
        Map<String, String> env = Map.of("PATH", "/usr/bin", "WARDEN_SESSION_ROLE", "worker");
        ForwardRequest r = ForwardRequest.read(new ByteArrayInputStream(
                ForwardFrame.body(ForwardFrame.records(DIR, env, "dispatch", "--host", "claude"), PAYLOAD)));

        Caller caller = r.caller();

        assertThat(caller.env()).isEqualTo(env);
        assertThat(caller.childEnv()).isEqualTo(env);
        assertThat(caller.workingDir()).isEqualTo(DIR);
    }

    private static byte[] payload() {
        byte[] b = new byte[258];
        for (int i = 0; i < 256; i++) {
            b[i] = (byte) i;
        }
        b[256] = 0;
        b[257] = 0;
        return b;
    }

    private static List<String> replace(List<String> records, int index, String record) {
        List<String> copy = new ArrayList<>(records);
        copy.set(index, record);
        return copy;
    }

    private static List<String> without(List<String> records, int index) {
        List<String> copy = new ArrayList<>(records);
        copy.remove(index);
        return copy;
    }

    private static List<String> with(List<String> records, String record) {
        List<String> copy = new ArrayList<>(records);
        copy.add(record);
        return copy;
    }

    private static String[] args(int n) {
        List<String> argv = new ArrayList<>(Collections.nCopies(n, "x"));
        argv.set(0, "dispatch");
        return argv.toArray(String[]::new);
    }

    /** {@code n} records in all after the magic: {@code d}, one {@code a} and {@code n - 2} variables. */
    private static Map<String, String> manyVariables(int n) {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < n - 2; i++) {
            env.put("V" + i, Integer.toString(i));
        }
        return env;
    }
}
