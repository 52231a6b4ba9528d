package dev.agentwarden.cli;

import dev.agentwarden.server.Resident;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code warden demo}: runs every demo section, each in its own temporary project. */
@Command(name = "demo", description = "Replay recorded sessions through Warden and show what it does.")
final class DemoCommand implements Callable<Integer> {

    /** The sections, in the order they run. */
    static final List<DemoSection> SECTIONS = List.of(
            new SessionReplayDemo(),
            new IntegrityDemo(),
            new ReleaseDemo(),
            new SubagentLedgerDemo());

    @Spec
    CommandSpec spec;

    @Option(names = "--keep", description = "Keep the temporary project directories and print where they are.")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path home = home();
        Path launcher = home == null ? null : home.resolve("bin").resolve("warden");
        if (launcher != null && !Files.isExecutable(launcher)) {
            launcher = null;
        }
        Path cache = Files.createTempDirectory("warden-demo-cache-");
        Map<String, String> hostEnv = new HashMap<>(System.getenv());
        hostEnv.put("WARDEN_CACHE_DIR", cache.toString());
        hostEnv.put("XDG_STATE_HOME", cache.resolve("state").toString());
        for (String line : DemoPolicyNote.lines(DemoPolicyNote.of(home, hostEnv), 100)) {
            out.println(line);
        }
        int failed = 0;
        try {
            failed = runSections(out, home, launcher, hostEnv);
        } finally {
            for (String line : stopResidents(cache.resolve("resident"))) {
                out.println();
                out.println(line);
            }
            deleteTree(cache);
        }
        out.println();
        out.println(failed == 0 ? "demo complete: " + SECTIONS.size() + " section(s)" : "demo: " + failed + " section(s) failed");
        return failed == 0 ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
    }

    private int runSections(PrintWriter out, Path home, Path launcher, Map<String, String> hostEnv) throws IOException {
        int failed = 0;
        for (DemoSection section : SECTIONS) {
            Path work = Files.createTempDirectory("warden-demo-");
            out.println();
            out.println("== " + section.title());
            out.flush();
            try {
                section.run(new DemoEnv(out, work, home, launcher, hostEnv));
            } catch (Exception e) {
                failed++;
                out.println("!! section failed: " + e);
            } finally {
                out.flush();
                if (keep) {
                    out.println("(kept " + work + ")");
                } else {
                    deleteTree(work);
                }
            }
        }
        return failed;
    }

    /**
     * Stops the resident servers the demo's hooks started in {@code dir} and returns what each
     * said when it stopped ("... after answering N forwarded events").
     */
    static List<String> stopResidents(Path dir) throws IOException, InterruptedException {
        List<String> said = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return said;
        }
        // One still starting publishes its endpoint within seconds; wait for it rather than leave it behind.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!filesEndingWith(dir, ".starting").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        for (Path endpoint : filesEndingWith(dir, ".endpoint")) {
            Resident.Endpoint e = Resident.read(endpoint);
            Optional<ProcessHandle> process = e == null ? Optional.empty() : ProcessHandle.of(e.pid());
            if (process.isEmpty()) {
                continue;
            }
            Resident.terminate(process.get(), Duration.ofSeconds(30));
            String name = endpoint.getFileName().toString();
            Path log = dir.resolve(name.substring(0, name.length() - ".endpoint".length()) + ".log");
            String last = Files.exists(log) ? Files.readString(log).strip() : "";
            last = last.substring(last.lastIndexOf('\n') + 1);
            said.add(last.contains("forwarded events") ? last
                    : "warden resident: stopped pid " + e.pid());
        }
        return said;
    }

    private static List<Path> filesEndingWith(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).toList();
        }
    }

    /** This Warden's home ({@link WardenHome}) when it holds {@code examples/}, else {@code null}. */
    static Path home() {
        WardenHome home = WardenHome.locate();
        return home != null && Files.isDirectory(home.examples()) ? home.dir() : null;
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
