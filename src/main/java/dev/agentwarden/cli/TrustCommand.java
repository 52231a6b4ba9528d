package dev.agentwarden.cli;

import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.trust.LineDiff;
import dev.agentwarden.manifest.ManifestProblem;
import dev.agentwarden.trust.TrustException;
import dev.agentwarden.trust.TrustRecord;
import dev.agentwarden.trust.TrustStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code warden trust [--project-dir D] [--show | --revoke]}: lets the project's
 * {@code .warden/manifest.yaml}, and the scripts its process concerns name, take effect, as they
 * are now ({@link TrustStore}).
 */
@Command(name = "trust", description = "Trust the project's .warden/manifest.yaml and the scripts it runs, as they are now.")
final class TrustCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CwdProjectOption project;

    @Option(names = "--show", description = "Print what is trusted and whether it still matches; exit 1 if not.")
    boolean show;

    @Option(names = "--revoke", description = "Forget the project's trust: its manifest no longer takes effect.")
    boolean revoke;

    @Option(names = "--yes", description = "Trust even when run with no terminal from inside an agent host's tool call.")
    boolean yes;

    /**
     * Variables a host sets in the environment of the commands its agent runs: Claude Code's
     * {@code CLAUDECODE=1} and {@code CLAUDE_CODE_ENTRYPOINT}, Codex's sandbox variables.
     */
    static final String[] HOST_MARKERS = {
        "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_THREAD_ID",
    };

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (show && revoke) {
            err.println("warden trust: --show and --revoke exclude each other");
            return ExitCode.UNREADABLE.code();
        }
        String refusal = show || yes ? null : agentRefusal(WardenCli.env(spec), stdinIsTerminal());
        if (refusal != null) {
            err.println(refusal);
            return ExitCode.UNREADABLE.code();
        }
        Path root = project.root();
        TrustStore store = TrustStore.forEnv(WardenCli.env(spec));
        return (show ? show(store, root, out) : revoke ? revoke(store, root, out, err)
                : trust(store, root, Clock.systemUTC(), out, err)).code();
    }

    /**
     * Why trusting must not go ahead: no terminal on standard input while a host's marker is in
     * the environment, so an agent, not the user, is most likely running it; else {@code null}.
     */
    static String agentRefusal(Map<String, String> env, boolean stdinIsTerminal) {
        if (stdinIsTerminal) {
            return null;
        }
        for (String marker : HOST_MARKERS) {
            String value = env.get(marker);
            if (value != null && !value.isEmpty()) {
                return "warden trust: refused: this looks like an agent's tool call (" + marker + " is set and standard"
                        + " input is not a terminal), and trust is the user's decision. Run `warden trust` yourself in"
                        + " your own terminal, or add --yes if you really mean to trust from a script.";
            }
        }
        return null;
    }

    /** Whether standard input is a terminal ({@code /proc/self/fd/0} names a tty; else as {@link System#console()}). */
    static boolean stdinIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    static ExitCode trust(TrustStore store, Path root, Clock clock, PrintWriter out, PrintWriter err) {
        printChanges(store, root, out);
        TrustRecord record;
        try {
            record = store.trust(root, clock);
        } catch (TrustException e) {
            err.println("warden trust: " + e.getMessage());
            return ExitCode.UNREADABLE;
        } catch (ManifestException e) {
            err.println("warden trust: " + e.getMessage());
            e.problems().stream().filter(p -> p.isError()).limit(5).forEach(p -> err.println("  " + p));
            return ExitCode.FINDINGS;
        }
        out.println("trusted " + Path.of(record.project()).resolve(TrustStore.PROJECT_MANIFEST));
        print(record, null, out);
        printSkippedEntries(store, record, err);
        return ExitCode.OK;
    }

    /** Lines of a first trust's manifest shown; the rest is counted. */
    static final int FIRST_TRUST_LINES = 200;

    /**
     * What the user is about to trust: the diff of the manifest against the last trusted copy and the
     * scripts changed since, or, on a first trust, the manifest itself.
     */
    static void printChanges(TrustStore store, Path root, PrintWriter out) {
        String realRoot = TrustStore.realRoot(root.toString());
        byte[] now;
        try {
            now = ManifestLoader.readBytes(Path.of(realRoot).resolve(TrustStore.PROJECT_MANIFEST));
        } catch (IOException e) {
            return; // trusting says why it cannot
        }
        String after = new String(now, StandardCharsets.UTF_8);
        TrustRecord previous = store.lookup(realRoot).record();
        if (previous == null) {
            List<String> lines = LineDiff.of("", after);
            out.println("first trust of " + TrustStore.PROJECT_MANIFEST + " in " + realRoot + "; what it says:");
            for (int i = 1; i < lines.size() && i <= FIRST_TRUST_LINES; i++) {
                out.println("  " + lines.get(i));
            }
            if (lines.size() - 1 > FIRST_TRUST_LINES) {
                out.println("  ... " + (lines.size() - 1 - FIRST_TRUST_LINES) + " more line(s) in the file");
            }
            return;
        }
        String before;
        try {
            before = new String(store.trustedManifest(previous), StandardCharsets.UTF_8);
        } catch (TrustException e) {
            out.println("cannot show what changed since the last trust: " + e.getMessage());
            return;
        }
        List<String> diff = LineDiff.of(before, after);
        if (diff.isEmpty()) {
            out.println(TrustStore.PROJECT_MANIFEST + " unchanged since it was last trusted (" + previous.trustedAt() + ")");
        } else {
            out.println("changes to " + TrustStore.PROJECT_MANIFEST + " since it was last trusted (" + previous.trustedAt()
                    + "):");
            for (String line : diff) {
                out.println("  " + line);
            }
        }
        for (Map.Entry<String, String> f : new TreeMap<>(previous.files()).entrySet()) {
            String current = TrustStore.currentHash(Path.of(realRoot), f.getKey());
            if (!current.equals(f.getValue())) {
                out.println("script " + f.getKey() + ": " + mark(f.getValue(), current).strip().toLowerCase(java.util.Locale.ROOT)
                        + " since it was last trusted");
            }
        }
    }

    /**
     * The lint errors of the manifest as trusted that do not stop it (a chain entry naming an unknown
     * concern, or one twice): dispatch skips those entries and runs the rest, and says so each time.
     */
    private static void printSkippedEntries(TrustStore store, TrustRecord record, PrintWriter err) {
        String file = Path.of(record.project()).resolve(TrustStore.PROJECT_MANIFEST).toString();
        ManifestCompiler.Result compiled;
        try {
            compiled = ManifestCompiler.compile(file, new String(store.trustedManifest(record), StandardCharsets.UTF_8),
                    record.manifestSha256());
        } catch (TrustException | ManifestException e) {
            return;
        }
        for (ManifestProblem p : compiled.problems()) {
            if (p.isError()) {
                err.println("warning: " + p + " (the entry is skipped at dispatch and the rest of the chain runs;"
                        + " fix it and run `warden trust` again)");
            }
        }
    }

    /**
     * What {@code install} says after trusting the project manifest it installed for (the user ran
     * it in this project and saw what it binds); one line.
     */
    static String onInstall(Path root, Map<String, String> env, Clock clock) {
        if (!Files.isRegularFile(root.resolve(TrustStore.PROJECT_MANIFEST))) {
            return "trust: no " + TrustStore.PROJECT_MANIFEST + " here; the default manifest is in force";
        }
        try {
            TrustRecord record = TrustStore.forEnv(env).trust(root, clock);
            return "trusted " + TrustStore.PROJECT_MANIFEST + " (sha256:" + record.manifestSha256().substring(0, 12)
                    + "…) and " + record.files().size() + " script file(s); `warden trust --show` lists them";
        } catch (TrustException | ManifestException e) {
            return "warning: " + TrustStore.PROJECT_MANIFEST + " not trusted, so it does not take effect: "
                    + e.getMessage();
        }
    }

    static ExitCode show(TrustStore store, Path root, PrintWriter out) {
        String realRoot = TrustStore.realRoot(root.toString());
        TrustStore.Lookup lookup = store.lookup(realRoot);
        if (lookup.record() == null) {
            out.println(lookup.problem() != null ? "trust record not usable: " + lookup.problem()
                    : "no trust record for " + realRoot + ": its " + TrustStore.PROJECT_MANIFEST
                    + " does not take effect (run `warden trust`)");
            return ExitCode.FINDINGS;
        }
        out.println("project " + realRoot + " (trusted " + lookup.record().trustedAt() + ")");
        boolean current = print(lookup.record(), Path.of(realRoot), out);
        out.println(current ? "in force as trusted"
                : "changed since trusted: the last trusted manifest stays in force and a changed script does not run"
                + " (run `warden trust` to trust what is there now)");
        return current ? ExitCode.OK : ExitCode.FINDINGS;
    }

    static ExitCode revoke(TrustStore store, Path root, PrintWriter out, PrintWriter err) {
        try {
            out.println(store.revoke(root) ? "revoked trust for " + TrustStore.realRoot(root.toString())
                    : "no trust record for " + TrustStore.realRoot(root.toString()));
            return ExitCode.OK;
        } catch (TrustException e) {
            err.println("warden trust: " + e.getMessage());
            return ExitCode.UNREADABLE;
        }
    }

    /** Prints the record; with {@code root}, marks each entry current or changed and returns whether all are current. */
    private static boolean print(TrustRecord record, Path root, PrintWriter out) {
        boolean current = true;
        String manifestNow = root == null ? null : TrustStore.currentHash(root, TrustStore.PROJECT_MANIFEST);
        current &= manifestNow == null || manifestNow.equals(record.manifestSha256());
        out.println("  manifest " + TrustStore.PROJECT_MANIFEST + "  sha256:" + record.manifestSha256()
                + mark(record.manifestSha256(), manifestNow));
        if (record.files().isEmpty()) {
            out.println("  (no process-concern scripts)");
        }
        for (Map.Entry<String, String> f : new TreeMap<>(record.files()).entrySet()) {
            String now = root == null ? null : TrustStore.currentHash(root, f.getKey());
            current &= now == null || now.equals(f.getValue());
            String shown = f.getValue().equals(TrustRecord.ABSENT) ? "(absent when trusted: may not appear)"
                    : "sha256:" + f.getValue();
            out.println("  script   " + f.getKey() + "  " + shown + mark(f.getValue(), now));
        }
        return current;
    }

    private static String mark(String trusted, String now) {
        return now == null ? "" : now.equals(trusted) ? "  current" : now.equals(TrustRecord.ABSENT) ? "  GONE"
                : trusted.equals(TrustRecord.ABSENT) ? "  APPEARED" : "  CHANGED";
    }
}
