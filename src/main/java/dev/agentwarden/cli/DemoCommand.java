package dev.agentwarden.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
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
        int failed = 0;
        for (DemoSection section : SECTIONS) {
            Path work = Files.createTempDirectory("warden-demo-");
            out.println();
            out.println("== " + section.title());
            out.flush();
            try {
                section.run(new DemoEnv(out, work, home, launcher));
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
        out.println();
        out.println(failed == 0 ? "demo complete: " + SECTIONS.size() + " section(s)" : "demo: " + failed + " section(s) failed");
        return failed == 0 ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
    }

    /** The Warden checkout: {@code -Dwarden.home} (set by bin/warden), else the current directory if it is one. */
    static Path home() {
        String prop = System.getProperty("warden.home");
        if (prop != null && Files.isDirectory(Path.of(prop, "examples"))) {
            return Path.of(prop).toAbsolutePath();
        }
        Path cwd = Path.of("").toAbsolutePath();
        return Files.isDirectory(cwd.resolve("examples")) ? cwd : null;
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
