package dev.agentwarden.cli;

import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.policytest.CaseFile;
import dev.agentwarden.policytest.CaseResult;
import dev.agentwarden.policytest.CaseWriter;
import dev.agentwarden.policytest.CapturedEvent;
import dev.agentwarden.policytest.Captures;
import dev.agentwarden.policytest.EventRun;
import dev.agentwarden.policytest.PolicyCase;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden test [PATH…]}: policy unit tests, as {@code opa test}. Each case of each test file
 * ({@link CaseFile}) runs through the real dispatch path against the manifest in force (or
 * {@code --manifest}), writing no state ({@link EventRun}); its verdict, reason and host output are
 * compared with what the case expects.
 */
@Command(name = "test", description = "Run policy tests (YAML cases: an event and the verdict it must get) through "
        + "dispatch against the manifest in force; exit 1 when a case fails.")
final class TestCommand implements Callable<Integer> {
    /** Where test files are looked for when no PATH is given, under the project root. */
    static final String DEFAULT_DIR = ".warden/tests";
    /** How deep a PATH directory is searched for test files. */
    private static final int MAX_DEPTH = 8;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption output;

    @Mixin
    CwdProjectOption project;

    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "Test files (.yaml, .yml) or directories of them (default: " + DEFAULT_DIR + ").")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--manifest", paramLabel = "FILE", description = "Test this manifest instead of the one in force.")
    Path manifest;

    @Option(names = "--from-capture", paramLabel = "DIR|FILE.jsonl",
            description = "Instead of testing: write a test file whose cases pin the verdicts that captured events "
                    + "(WARDEN_CAPTURE_DIR, or a session file) get today.")
    Path fromCapture;

    @Option(names = "--out", paramLabel = "FILE",
            description = "With --from-capture: the test file to write (default: DIR/captured-tests.yaml); never overwritten.")
    Path out;

    @Option(names = "--host", paramLabel = "H", description = "With --from-capture: the host of session-file lines that name none (default: claude).")
    String host = Hosts.assumed().id();

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path root = project.root();
        Map<String, String> env = WardenCli.env(spec);
        String manifestFile = manifest == null ? null : manifest.toAbsolutePath().toString();
        String notInForce = manifestFile == null ? NotInForce.line(root, env) : null;
        if (notInForce != null) {
            (output.json ? err : stdout).println(notInForce);
        }
        if (fromCapture != null) {
            return pin(root, env, manifestFile, stdout, err).code();
        }
        List<Path> files;
        try {
            files = testFiles(root, paths);
        } catch (IOException e) {
            err.println("warden test: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        if (files.isEmpty()) {
            err.println("warden test: no test files (.yaml, .yml) " + (paths.isEmpty() ? "in " + root.resolve(DEFAULT_DIR)
                    : "in " + paths) + "; pass PATH…, or put them in " + DEFAULT_DIR + "/ (examples/policy-tests/ has some)");
            return ExitCode.UNREADABLE.code();
        }
        List<PolicyCase> cases = new ArrayList<>();
        for (Path f : files) {
            try {
                cases.addAll(CaseFile.read(f, root.toString()));
            } catch (CaseFile.Invalid e) {
                err.println("warden test: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
        List<CaseResult> results = new ArrayList<>();
        for (PolicyCase c : cases) {
            results.add(CaseResult.of(c, EventRun.run(root, c.host(), c.nativeEvent(), c.payload(), manifestFile,
                    c.role(), c.failMode(), env, Clock.systemUTC())));
        }
        int failed = 0;
        for (CaseResult r : results) {
            failed += r.passed() ? 0 : 1;
        }
        if (output.json) {
            stdout.println(Json.write(json(results, failed)));
        } else {
            print(results, root, stdout);
            stdout.println((results.size() - failed) + " passed, " + failed + " failed");
        }
        return failed == 0 ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
    }

    /** The test files named by {@code paths} (a directory: its .yaml and .yml files, in name order). */
    static List<Path> testFiles(Path root, List<Path> paths) throws IOException {
        List<Path> given = paths.isEmpty() ? List.of(root.resolve(DEFAULT_DIR)) : paths;
        List<Path> files = new ArrayList<>();
        for (Path p : given) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p, MAX_DEPTH)) {
                    walk.filter(f -> Files.isRegularFile(f) && isTestFile(f)).sorted().forEach(files::add);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else if (!paths.isEmpty()) {
                throw new IOException(p + ": no such test file or directory");
            }
        }
        return files;
    }

    private static boolean isTestFile(Path f) {
        String name = f.getFileName().toString();
        return name.endsWith(".yaml") || name.endsWith(".yml");
    }

    private static void print(List<CaseResult> results, Path root, PrintWriter out) {
        String manifest = null;
        for (CaseResult r : results) {
            if (manifest == null && r.outcome().manifest() != null) {
                manifest = r.outcome().manifest();
                out.println("manifest: " + manifest);
            }
            PolicyCase c = r.testCase();
            String where = shown(root, c.file()) + ": " + c.name();
            if (r.passed()) {
                out.println("ok    " + where + " (" + r.outcome().verdict() + ")");
            } else {
                String reason = r.outcome().reason() == null ? "" : " — reason: " + flat(r.outcome().reason());
                out.println("FAIL  " + where + ": " + String.join("; ", r.failures()) + reason);
            }
        }
    }

    private static Map<String, Object> json(List<CaseResult> results, int failed) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("passed", (long) (results.size() - failed));
        json.put("failed", (long) failed);
        List<Object> cases = new ArrayList<>();
        for (CaseResult r : results) {
            PolicyCase c = r.testCase();
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("file", c.file().toString());
            o.put("index", (long) c.index());
            o.put("name", c.name());
            o.put("host", c.host());
            o.put("event", c.nativeEvent());
            o.put("passed", r.passed());
            o.put("expected", c.verdict());
            o.put("verdict", r.outcome().verdict());
            o.put("reason", r.outcome().reason());
            o.put("stdout", r.outcome().response().stdout());
            o.put("exit_code", (long) r.outcome().response().exitCode());
            o.put("manifest", r.outcome().manifest());
            o.put("failures", new ArrayList<Object>(r.failures()));
            cases.add(o);
        }
        json.put("cases", cases);
        return json;
    }

    /** {@code --from-capture}: runs each recorded event and writes the cases pinning today's verdicts. */
    private ExitCode pin(Path root, Map<String, String> env, String manifestFile, PrintWriter stdout, PrintWriter err) {
        List<CapturedEvent> events;
        try {
            events = Captures.read(fromCapture, host, root);
        } catch (CaseFile.Invalid e) {
            err.println("warden test: " + e.getMessage());
            return ExitCode.UNREADABLE;
        }
        if (events.isEmpty()) {
            err.println("warden test: no captured events in " + fromCapture);
            return ExitCode.UNREADABLE;
        }
        Path target = out != null ? out : (Files.isDirectory(fromCapture) ? fromCapture : fromCapture.toAbsolutePath()
                .getParent()).resolve("captured-tests.yaml");
        List<CaseWriter.Pinned> pinned = new ArrayList<>();
        String manifestSource = null;
        for (CapturedEvent e : events) {
            EventRun.Outcome o = EventRun.run(root, e.host(), e.nativeEvent(), e.payload(), manifestFile, null, null, env,
                    Clock.systemUTC());
            manifestSource = manifestSource != null ? manifestSource : o.manifest();
            pinned.add(new CaseWriter.Pinned(e, o.verdict()));
        }
        byte[] text = CaseWriter.yaml(target, fromCapture, manifestSource, pinned).getBytes(StandardCharsets.UTF_8);
        try {
            Files.write(target, text, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            err.println("warden test: " + target + " exists; not overwritten (pass --out FILE)");
            return ExitCode.UNREADABLE;
        } catch (IOException e) {
            err.println("warden test: cannot write " + target + ": " + e.getMessage());
            return ExitCode.UNREADABLE;
        }
        stdout.println("wrote " + target + ": " + pinned.size() + " case(s) pinning today's verdicts; run `warden test "
                + target + "`");
        return ExitCode.OK;
    }

    private static String shown(Path root, Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return abs.startsWith(root) ? root.relativize(abs).toString() : file.toString();
    }

    private static String flat(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= 200 ? one : one.substring(0, 199) + "…";
    }
}
