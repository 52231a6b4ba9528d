package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import dev.agentwarden.host.Hosts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The golden dispatch corpus: {@code src/test/resources/golden/<host>/<case>.json} (a native event,
 * its payload or raw stdin, and env) beside {@code <case>.expected.json} (exit code, the exact
 * stdout JSON or {@code null} for no output, and what stderr must hold). One loader and one runner
 * shared by every entry path: {@link GoldenDispatchTest} runs the cases in-process,
 * {@link GoldenDispatchIT} through the packaged jar as a process, and both must give identical
 * output.
 *
 * <p>Every case runs against {@code golden/golden-manifest.yaml} ({@code --manifest}) in a fresh
 * project directory holding the corpus' process concern, named to Warden by
 * {@code CLAUDE_PROJECT_DIR} as Claude Code does, with {@code WARDEN_CACHE_DIR} in a temp dir.
 */
final class GoldenCorpus {
    private GoldenCorpus() {
    }

    /**
     * One case.
     *
     * @param name        path below {@code golden/}, without {@code .json}: the test's display name
     * @param host        the directory the case sits in
     * @param nativeEvent passed as {@code --native-event}, or {@code null} to let the payload say
     * @param event       passed as {@code --event} (the canonical event, overriding the manifest's
     *                    alias), or {@code null}: drives a chain from another event's host response
     * @param env         variables the case adds to the dispatch environment
     * @param stdin       exactly the bytes written to dispatch's stdin
     * @param expected    what must come out
     * @param manifest    the manifest it runs against: the corpus manifest, or the one its {@code "manifest"}
     *                    key names beside it under {@code golden/} (the rules cases' {@code rules-manifest.yaml})
     */
    record Case(String name, String host, String nativeEvent, String event, Map<String, String> env, byte[] stdin,
                Expected expected, Path manifest) {

        /** The dispatch arguments, as the installed hook passes them, plus the corpus manifest. */
        List<String> argv() {
            List<String> argv = new ArrayList<>(List.of("dispatch", "--host", host));
            if (nativeEvent != null) {
                argv.add("--native-event");
                argv.add(nativeEvent);
            }
            if (event != null) {
                argv.add("--event");
                argv.add(event);
            }
            argv.add("--manifest");
            argv.add(manifest.toString());
            return argv;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * @param exitCode       process exit code
     * @param stdout         the exact stdout text, "" for none
     * @param stderrEmpty    stderr must be empty
     * @param stderrContains fragments stderr must contain
     */
    record Expected(int exitCode, String stdout, boolean stderrEmpty, List<String> stderrContains) {
    }

    /** What one dispatch wrote and returned. */
    record Outcome(int exitCode, String stdout, String stderr) {
        /** This outcome with {@link GoldenCorpus#normalized} stdout, to compare two runs. */
        Outcome normalized() {
            return new Outcome(exitCode, GoldenCorpus.normalized(stdout), stderr);
        }
    }

    static Path root() {
        try {
            return Path.of(GoldenCorpus.class.getResource("/golden").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path manifest() {
        return root().resolve("golden-manifest.yaml");
    }

    /** Every case, named by its path, for {@code @MethodSource}. */
    static Stream<Named<Case>> cases() throws IOException {
        List<Named<Case>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root())) {
            for (Path file : files.sorted().toList()) {
                String rel = root().relativize(file).toString().replace('\\', '/');
                if (rel.endsWith(".json") && !rel.endsWith(".expected.json") && !rel.startsWith("concerns/")) {
                    Case c = load(file, rel.substring(0, rel.length() - ".json".length()));
                    out.add(Named.of(c.name(), c));
                }
            }
        }
        assertThat(out).as("golden cases under %s", root()).hasSizeGreaterThan(40);
        return out.stream();
    }

    /**
     * One case of each kind, for the suites that start a cold JVM per case: the first case, in path
     * order, of each {@link #kind}. A cold run's start-up, the classes it loads and the way it reads
     * stdin and writes its answer follow from its kind; the other cases of a kind differ in payload
     * bytes and verdict only, and those are asserted for every case in-process ({@link GoldenDispatchTest},
     * {@link GoldenDecisionLineTest}), over HTTP ({@link GoldenServeTest}) and through the launcher and a
     * resident process ({@link GoldenForwardIT}); the cold run asserts that the in-process run agrees
     * with it byte for byte, so the in-process path stands for the cold JVM on the rest of its kind.
     */
    static Stream<Named<Case>> coldCases() throws IOException {
        Set<String> seen = new HashSet<>();
        List<Named<Case>> out = new ArrayList<>();
        for (Named<Case> c : cases().toList()) {
            if (seen.add(kind(c.getPayload()))) {
                out.add(c);
            }
        }
        return out.stream();
    }

    /**
     * What a cold run of {@code c} depends on besides its payload: the host, the event as its file name
     * says it (the corpus names a case {@code <event>-<verdict>-<detail>}, a VS Code flavour
     * {@code vscode-<event>-...}), the {@code --native-event} and {@code --event} it passes, the
     * manifest, the variables it sets, and whether its bytes in or out hold non-ASCII text (which the
     * process encodes as UTF-8 whatever the locale, where the in-process run is handed strings).
     */
    static String kind(Case c) {
        String file = c.name().substring(c.name().indexOf('/') + 1);
        int dash = file.indexOf('-');
        String named = dash < 0 ? file : file.substring(0, dash);
        if (named.equals("vscode")) {
            int next = file.indexOf('-', dash + 1);
            named = next < 0 ? file : file.substring(0, next);
        }
        return c.host() + " " + named + " " + c.nativeEvent() + " " + c.event() + " " + c.manifest().getFileName()
                + " " + new TreeMap<>(c.env()) + (nonAscii(c) ? " utf-8" : "");
    }

    private static boolean nonAscii(Case c) {
        StringBuilder text = new StringBuilder(new String(c.stdin(), StandardCharsets.UTF_8)).append(c.expected().stdout());
        c.expected().stderrContains().forEach(text::append);
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7f) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    static Case load(Path file, String name) throws IOException {
        Map<String, Object> input = Json.parseObject(Files.readString(file, StandardCharsets.UTF_8));
        Path expectedFile = file.resolveSibling(file.getFileName().toString().replace(".json", ".expected.json"));
        assertThat(expectedFile).as("every case has its .expected.json").exists();
        Map<String, Object> exp = Json.parseObject(Files.readString(expectedFile, StandardCharsets.UTF_8));

        byte[] stdin;
        if (input.containsKey("payload")) {
            stdin = Json.write(input.get("payload")).getBytes(StandardCharsets.UTF_8);
        } else {
            stdin = ((String) input.get("stdin")).getBytes(StandardCharsets.UTF_8);
        }
        Map<String, String> env = new LinkedHashMap<>();
        if (input.get("env") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put((String) k, (String) v));
        }
        Map<String, Object> stderr = (Map<String, Object>) exp.get("stderr");
        Expected expected = new Expected(((Long) exp.get("exit_code")).intValue(),
                exp.get("stdout") == null ? "" : Json.write(exp.get("stdout")),
                Boolean.TRUE.equals(stderr.get("empty")),
                stderr.get("contains") == null ? List.of() : (List<String>) stderr.get("contains"));
        String host = name.substring(0, name.indexOf('/'));
        Path manifest = input.get("manifest") instanceof String m ? root().resolve(m) : manifest();
        return new Case(name, host, (String) input.get("native_event"), (String) input.get("event"), env, stdin, expected,
                manifest);
    }

    /**
     * A throwaway project: the corpus' process concern under {@code concerns/}, and a cache dir. A test
     * class registers one with {@code @RegisterExtension static final}: it exists from before the
     * class's {@code @BeforeAll} methods until after its {@code @AfterAll} methods.
     */
    static final class Project implements BeforeAllCallback, AfterAllCallback, AutoCloseable {
        Path dir;
        Path cache;
        /** A cache this project uses but did not create, so does not delete; null when it has its own. */
        private Path sharedCache;

        /** A project of its own, outside a test class's lifecycle (try-with-resources). */
        static Project open() throws IOException {
            Project p = new Project();
            p.beforeAll(null);
            return p;
        }

        /** {@link #open()}, but with {@code cache} (another project's, left in place) as its cache dir. */
        static Project open(Path cache) throws IOException {
            Project p = new Project();
            p.sharedCache = cache;
            p.beforeAll(null);
            return p;
        }

        @Override
        public void close() throws IOException {
            afterAll(null);
        }

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            dir = Files.createTempDirectory("warden-golden-project");
            cache = sharedCache != null ? sharedCache : Files.createTempDirectory("warden-golden-cache");
            Path script = dir.resolve("concerns/golden-concern.sh");
            Files.createDirectories(script.getParent());
            Files.createLink(script, concernProgram());
        }

        /** The dispatch environment for a case: the project, the cache, then the case's own variables. */
        Map<String, String> env(Case c) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("WARDEN_CACHE_DIR", cache.toString());
            env.put("CLAUDE_PROJECT_DIR", dir.toString());
            env.putAll(c.env());
            return env;
        }

        @Override
        public void afterAll(ExtensionContext context) throws IOException {
            deleteTree(dir);
            if (sharedCache == null) {
                deleteTree(cache);
            }
        }
    }

    private static Path concernProgram;

    /**
     * The corpus' process concern, copied once per test JVM by {@link WardenProcess#copyExecutable} (never
     * written by this JVM, so no child another thread forks can hold it open for writing) and hard-linked
     * into each project: a project costs no process of its own. Removed when the JVM exits.
     */
    static synchronized Path concernProgram() throws IOException {
        if (concernProgram == null) {
            Path dir = Files.createTempDirectory("warden-golden-concern");
            Path program = WardenProcess.copyExecutable(root().resolve("concerns/golden-concern.sh"),
                    dir.resolve("golden-concern.sh"));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Files.deleteIfExists(program);
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // a temporary directory left behind
                }
            }));
            concernProgram = program;
        }
        return concernProgram;
    }

    /** A fixed clock: nothing in dispatch output may depend on the time. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T12:00:00Z"), ZoneOffset.UTC);

    static Outcome runInProcess(Case c, Project project) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(c.argv().toArray(String[]::new), new ByteArrayInputStream(c.stdin()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                project.env(c), CLOCK);
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Checks an outcome against the case's expectation and the host protocol's invariants. In an
     * expected stdout, {@code $PROJECT} stands for the throwaway project's directory and
     * {@code $GATE_SESSION} for an integrity gate session label (the host's id, a time, a random suffix).
     */
    static void assertMatches(Case c, Outcome o) {
        assertThat(o.exitCode()).as("exit code").isEqualTo(c.expected().exitCode());
        assertThat(normalized(o.stdout())).as("stdout of %s", c)
                .isEqualTo(c.expected().stdout());
        assertAtMostOneJsonObject(o.stdout());
        if (!o.stdout().contains("\"updatedInput\"")) { // a rewrite runs only beside an explicit allow
            assertThat(o.stdout()).as("never an explicit allow").doesNotContain("\"allow\"");
        }
        if (c.expected().stderrEmpty()) {
            assertThat(o.stderr()).as("stderr").isEmpty();
        }
        for (String fragment : c.expected().stderrContains()) {
            assertThat(o.stderr()).as("stderr").contains(fragment);
        }
    }

    /** Stdout with the throwaway project's directory as {@code $PROJECT} and gate session labels as {@code $GATE_SESSION}. */
    static String normalized(String stdout) {
        return stdout.replaceAll("/(?:[^\"/ ]+/)*warden-golden-project\\d+", "\\$PROJECT")
                .replaceAll("(?:" + String.join("|", Hosts.ids()) + ")-\\d{8}T\\d{6}Z-[0-9a-f]{8}", "\\$GATE_SESSION");
    }

    /** Stdout is empty or exactly one JSON object, and nothing else. */
    static void assertAtMostOneJsonObject(String stdout) {
        if (!stdout.isEmpty()) {
            assertThat(Json.parse(stdout)).as("stdout is one JSON object: %s", stdout).isInstanceOf(Map.class);
            assertThat(stdout).as("no line breaks around the object").doesNotContain("\n");
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
