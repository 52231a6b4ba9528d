package dev.agentwarden.cli;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.managed.ManagedLayer;
import dev.agentwarden.managed.UserLayer;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.manifest.ManifestMerge;
import dev.agentwarden.manifest.ManifestProblem;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code warden manifest lint|show}. */
@Command(name = "manifest", description = "Check and inspect the hook manifest.",
        subcommands = {ManifestCommand.Lint.class, ManifestCommand.Show.class, ManifestCommand.Sign.class})
final class ManifestCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Lints a manifest: exit 0 clean, 1 errors, 2 unreadable. */
    @Command(name = "lint", description = "Validate a manifest; errors name file:line and the key.")
    static final class Lint implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(arity = "0..1", paramLabel = "FILE", description = "Manifest file (default: the one in force).")
        Path file;

        @Option(names = "--strict", description = "Treat warnings as errors.")
        boolean strict;

        @Option(names = "--project-dir", description = "Project root for relative script paths (default: the project the current directory is in, as for install).")
        Path projectDir;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Path root = projectDir != null ? projectDir : CwdProjectOption.cwdProject();
            List<ManifestProblem> problems = new ArrayList<>();
            ManifestLoader.Source source;
            ManifestCompiler.Result result;
            try {
                source = file != null ? ManifestLoader.read(file) : ManifestLoader.locate(null, root.toString());
                result = ManifestCompiler.compileAndCheckScripts(source.name(),
                        new String(source.bytes(), StandardCharsets.UTF_8), ManifestLoader.sha256(source.bytes()), root);
            } catch (ManifestException e) {
                e.problems().forEach(p -> out.println(p));
                return ExitCode.UNREADABLE.code();
            }
            problems.addAll(result.problems());
            int errors = 0;
            for (ManifestProblem p : problems) {
                out.println(p);
                if (p.isError() || strict) {
                    errors++;
                }
            }
            out.println(source.name() + ": " + (errors == 0 ? "ok" : errors + " error(s)")
                    + (problems.size() > errors ? ", " + (problems.size() - errors) + " warning(s)" : ""));
            if (file == null) {
                Integer user = lintUserLayer(out, UserLayer.file(System.getenv()), strict);
                if (user != null && user != ExitCode.OK.code()) {
                    return errors == 0 || user == ExitCode.UNREADABLE.code() ? user : ExitCode.FINDINGS.code();
                }
            }
            return errors == 0 ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }

        /**
         * The user layer's file ({@code ~/.config/agent-warden/manifest.yaml}) linted as well, with its
         * owner rule; {@code null} when there is none. Its script paths are relative to its own directory.
         */
        static Integer lintUserLayer(PrintWriter out, Path userFile, boolean strict) {
            if (!java.nio.file.Files.exists(userFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            String owner = dev.agentwarden.io.OwnedPath.problem(userFile);
            if (owner != null) {
                out.println(userFile + ":0: user layer refused: " + owner + " (it must be yours, not writable by group or others)");
                return ExitCode.FINDINGS.code();
            }
            ManifestLoader.Source source;
            ManifestCompiler.Result result;
            try {
                source = ManifestLoader.read(userFile);
                result = ManifestCompiler.compileAndCheckScripts(source.name(), new String(source.bytes(),
                        StandardCharsets.UTF_8), ManifestLoader.sha256(source.bytes()), userFile.getParent());
            } catch (ManifestException e) {
                e.problems().forEach(p -> out.println(p));
                return ExitCode.UNREADABLE.code();
            }
            int errors = 0;
            for (ManifestProblem p : result.problems()) {
                out.println(p);
                if (p.isError() || strict) {
                    errors++;
                }
            }
            out.println(source.name() + " (user layer): " + (errors == 0 ? "ok" : errors + " error(s)")
                    + (result.problems().size() > errors ? ", " + (result.problems().size() - errors) + " warning(s)" : ""));
            return errors == 0 ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }
    }

    /** Prints the resolved chain for (host, event, role). */
    @Command(name = "show", description = "Print the resolved concern chain for a host and event.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--host", required = true, paramLabel = "H", description = "The host: ${bundle:warden.hosts}.")
        String host;

        @Option(names = "--event", required = true, description = "Canonical (pre_tool_use) or native (PreToolUse) event.")
        String event;

        @Option(names = "--role", description = "Session role (default: the default chain).")
        String role;

        @Option(names = "--manifest", description = "Manifest file (default: the one in force).")
        String manifestFile;

        @Option(names = "--project-dir", description = "Project root whose manifest is in force (default: the project the current directory is in, as for install).")
        Path projectDir;

        @Override
        public Integer call() throws ManifestException {
            PrintWriter out = spec.commandLine().getOut();
            Path root = projectDir != null ? projectDir : CwdProjectOption.cwdProject();
            host = Hosts.canonical(host);
            if (Hosts.unknown(host) != null) {
                spec.commandLine().getErr().println("warden manifest show: " + Hosts.unknown(host));
                return ExitCode.UNREADABLE.code();
            }
            ManifestLoader.Source source = ManifestLoader.locate(manifestFile, root.toString());
            ManagedLayer.State managed = ManagedLayer.load();
            if (managed.refused()) {
                spec.commandLine().getErr().println("warden manifest show: " + managed.problem());
                return ExitCode.UNREADABLE.code();
            }
            List<String> layerNotes = new java.util.ArrayList<>();
            UserLayer.State user = UserLayer.load(System.getenv(), layerNotes);
            if (user.refused()) {
                layerNotes.add("warden: " + user.problem());
            }
            Manifest m = managed.over(user.over(ManifestLoader.load(source, System.getenv()), layerNotes), layerNotes);
            // where each concern came from is not kept in the compiled form: read it off the source
            ManifestMerge.Origins origins = ManifestCompiler.compile(source.name(),
                    new String(source.bytes(), StandardCharsets.UTF_8), source.sha()).origins();
            EventName ev = EventName.fromWire(event);
            if (ev == null) {
                ev = m.canonicalEvent(host, event);
            }
            if (ev == null) {
                spec.commandLine().getErr().println("warden manifest show: unknown event '" + event + "' for host " + host);
                return ExitCode.UNREADABLE.code();
            }
            out.println("manifest: " + m.source() + (origins.base() == null ? ""
                    : "  (extends " + origins.base() + ": what it does not name is the default's)"));
            if (managed.manifest() != null) {
                out.println("managed: " + managed.manifest().source() + "  (runs first; nothing above it can drop or replace its concerns)");
            }
            if (user.manifest() != null) {
                out.println("user: " + user.manifest().source() + "  (runs after managed, before the project; the project cannot drop or replace its concerns)");
            }
            for (String note : layerNotes) {
                out.println(note);
            }
            out.println("host: " + host + "  event: " + ev.wire() + "  role: " + (role == null ? "(default)" : role)
                    + (origins.base() == null ? "" : "  chain: " + origins.chains().getOrDefault(host + "." + ev.wire(),
                    "none in either")));
            List<ConcernSpec> chain = m.chain(host, ev, role);
            if (chain.isEmpty()) {
                out.println("(no concerns bound)");
            }
            int i = 1;
            for (ConcernSpec c : chain) {
                out.printf("%2d. %-28s %-9s %s%s%s%n", i++, c.name(), c.posture().wire(), c.script(),
                        c.failClosed() ? "  fail_closed" : "",
                        c.tools().isEmpty() ? "" : "  tools=" + new java.util.TreeSet<>(c.tools()));
                if (managed.manifest() != null && managed.manifest().concerns().containsKey(c.name())) {
                    out.println("      from: managed");
                } else if (user.manifest() != null && user.manifest().concerns().containsKey(c.name())) {
                    out.println("      from: user");
                } else if (origins.base() != null) {
                    out.println("      from: " + origins.concerns().get(c.name()));
                }
            }
            for (String skipped : m.skipped(host, ev)) {
                out.println("skipped: " + skipped + " (a lint error; the rest of the chain runs)");
            }
            return ExitCode.OK.code();
        }
    }

    /** Signs the project's manifest for machines whose managed settings list the key as a signer. */
    @Command(name = "sign", description = "Sign .warden/manifest.yaml (and the scripts it names) with a team key:"
            + " writes .warden/manifest.yaml.sig, which machines whose managed settings list the key as a signer"
            + " take in force without `warden trust`.")
    static final class Sign implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--key", required = true, paramLabel = "FILE", description = "Ed25519 private key (PEM, from `warden release keygen`).")
        Path key;

        @Option(names = "--project-dir", description = "Project root (default: the project the current directory is in).")
        Path projectDir;

        @Override
        public Integer call() {
            Path root = projectDir != null ? projectDir : CwdProjectOption.cwdProject();
            Path file = root.resolve(".warden/manifest.yaml");
            try {
                ManifestLoader.Source source = ManifestLoader.read(file);
                Manifest m = ManifestLoader.load(source, System.getenv());
                byte[] sig = dev.agentwarden.release.ProjectManifestSignature.sign(source.bytes(),
                        dev.agentwarden.trust.TrustStore.namedFiles(m, root), key);
                Path out = root.resolve(dev.agentwarden.managed.SignedProjectManifest.SIGNATURE);
                dev.agentwarden.io.AtomicWrite.write(out, sig,
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                spec.commandLine().getOut().println("signed " + file + " -> " + out);
                return ExitCode.OK.code();
            } catch (ManifestException e) {
                spec.commandLine().getErr().println("warden manifest sign: " + e.getMessage()
                        + (e.problems().isEmpty() ? "" : " — " + e.problems().get(0)));
                return ExitCode.FINDINGS.code();
            } catch (dev.agentwarden.release.ReleaseException | java.io.IOException e) {
                spec.commandLine().getErr().println("warden manifest sign: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
    }
}
