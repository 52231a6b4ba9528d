package dev.agentwarden.server;

import dev.agentwarden.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The forward protocol's shared test vectors ({@code src/test/resources/forward-protocol/},
 * {@code docs/forward-protocol.md}): what a client reads and the exact bytes it sends
 * ({@code requests.json}), and what the resident (or an impostor on its port) answers and what the
 * client then prints ({@code answers.json}). The resident's parser and writer, {@code bin/warden} and
 * the compiled hook all run the same vectors.
 */
final class ForwardVectors {
    private ForwardVectors() {
    }

    /**
     * One request vector; {@code records} may hold {@code {cwd}}, {@code {harness-env}} and {@code {process}}.
     * {@code payloadLauncher}: what {@code bin/warden} sends, which differs only where the payload has NUL bytes.
     */
    record Request(String name, List<String> argv, List<String[]> env, byte[] stdin, boolean stdinOpen,
                   List<String> records, byte[] payload, byte[] payloadLauncher) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** What a client must print and exit with; {@code jvmStdin} {@code null} when no JVM may run. */
    record Expect(int exit, byte[] stdout, byte[] stderr, byte[] jvmStdin) {
    }

    /** One answer vector. */
    record Answer(String name, List<String> argv, List<String[]> env, byte[] stdin, boolean stdinOpen, String resident,
                  byte[] answer, Map<String, Object> residentWrites, Map<String, Object> residentRefuses, Expect expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The request head every client sends, with {@code {token}} and {@code {length}} to fill in. */
    static String head() {
        return (String) load("requests.json").get("head");
    }

    static List<Request> requests() {
        List<Request> out = new ArrayList<>();
        for (Object o : list(load("requests.json").get("vectors"))) {
            Map<String, Object> v = map(o);
            out.add(new Request((String) v.get("name"), strings(v.get("argv")), env(v.get("env")), bytes(v, "stdin"),
                    Boolean.TRUE.equals(v.get("stdin_open")), strings(v.get("records")), bytes(v, "payload"),
                    v.containsKey("payload_launcher") ? bytes(v, "payload_launcher") : bytes(v, "payload")));
        }
        return out;
    }

    /** A body no client sends, and a part of the message the resident refuses it with. */
    record Malformed(String name, byte[] body, String error) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Malformed> malformed() {
        List<Malformed> out = new ArrayList<>();
        for (Object o : list(load("requests.json").get("malformed"))) {
            Map<String, Object> v = map(o);
            out.add(new Malformed((String) v.get("name"), utf8(v.get("body")), (String) v.get("error")));
        }
        return out;
    }

    static List<Answer> answers() {
        List<Answer> out = new ArrayList<>();
        for (Object o : list(load("answers.json").get("vectors"))) {
            Map<String, Object> v = map(o);
            Map<String, Object> e = map(v.get("expect"));
            Expect expect = new Expect(((Number) e.get("exit")).intValue(), utf8(e.get("stdout")), utf8(e.get("stderr")),
                    e.containsKey("jvm_stdin") ? utf8(e.get("jvm_stdin")) : null);
            byte[] stdin = v.containsKey("stdin") ? utf8(v.get("stdin")) : "{}".getBytes(StandardCharsets.UTF_8);
            out.add(new Answer((String) v.get("name"), strings(v.get("argv")), env(v.get("env")), stdin,
                    Boolean.TRUE.equals(v.get("stdin_open")), (String) v.get("resident"),
                    v.containsKey("answer") ? utf8(v.get("answer")) : null,
                    v.containsKey("resident_writes") ? map(v.get("resident_writes")) : null,
                    v.containsKey("resident_refuses") ? map(v.get("resident_refuses")) : null, expect));
        }
        return out;
    }

    /**
     * The body a client sends for {@code records} and {@code payload}: each record and a NUL, one more
     * NUL, the payload. {@code {cwd}} in a record is replaced by {@code cwd}; the records
     * {@code {harness-env}} and {@code {process}} by {@code harnessEnv} and {@code process}.
     */
    static byte[] body(List<String> records, byte[] payload, String cwd, List<String> harnessEnv, List<String> process) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String r : records) {
            List<String> expanded = r.equals("{harness-env}") ? harnessEnv : r.equals("{process}") ? process
                    : List.of(r.replace("{cwd}", cwd));
            for (String x : expanded) {
                b.writeBytes(x.getBytes(StandardCharsets.UTF_8));
                b.write(0);
            }
        }
        b.write(0);
        b.writeBytes(payload);
        return b.toByteArray();
    }

    private static Map<String, Object> load(String name) {
        try (InputStream in = ForwardVectors.class.getResourceAsStream("/forward-protocol/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no test resource forward-protocol/" + name);
            }
            return map(Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(Map<String, Object> v, String key) {
        Object hex = v.get(key + "_hex");
        return hex != null ? HexFormat.of().parseHex((String) hex) : utf8(v.get(key));
    }

    private static byte[] utf8(Object s) {
        return ((String) s).getBytes(StandardCharsets.UTF_8);
    }

    private static List<String[]> env(Object o) {
        List<String[]> out = new ArrayList<>();
        if (o != null) {
            for (Object pair : list(o)) {
                List<String> p = strings(pair);
                out.add(new String[] {p.get(0), p.get(1)});
            }
        }
        return out;
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        for (Object x : list(o)) {
            out.add((String) x);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }
}
