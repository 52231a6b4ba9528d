package dev.agentwarden.cli;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.managed.BundleScripts;
import dev.agentwarden.managed.PolicyStore;
import dev.agentwarden.release.PolicyBundle;
import dev.agentwarden.release.ReleaseException;
import dev.agentwarden.release.Rfc3339;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code warden policy sign|pull|status}: the managed layer as a signed bundle for a fleet. */
@Command(name = "policy", description = "Sign, pull and show the managed policy bundle (/etc/agent-warden).",
        subcommands = {PolicyCommand.Sign.class, PolicyCommand.Pull.class, PolicyCommand.Status.class})
final class PolicyCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "sign", description = {"Sign DIR's manifest.yaml, settings.json and the scripts the manifest runs by relative path",
            "as one policy bundle.",
            "Keys are those of a trust root made with 'warden release keygen' and 'warden release root init'."})
    static final class Sign implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--key", required = true, paramLabel = "PEM", description = "Private key; repeat for a threshold above 1.")
        List<Path> keys;

        @Option(names = "--version", required = true, paramLabel = "N",
                description = "Bundle version; every machine refuses a version not above the one it has.")
        long version;

        @Option(names = "--expires", defaultValue = "30d", paramLabel = "TIME",
                description = "RFC 3339 time, or a span from now (default: ${DEFAULT-VALUE}).")
        String expires;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the bundle.")
        Path out;

        @Parameters(paramLabel = "DIR", description = "Directory holding manifest.yaml and/or settings.json.")
        Path dir;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            try {
                if (version < 1) {
                    throw new ReleaseException("version_invalid", "--version must be 1 or more");
                }
                Map<String, byte[]> files = new LinkedHashMap<>();
                for (String name : PolicyBundle.FILES) {
                    try {
                        files.put(name, Files.readAllBytes(dir.resolve(name)));
                    } catch (NoSuchFileException absent) {
                        // a bundle may carry either file alone
                    }
                }
                if (files.isEmpty()) {
                    throw new ReleaseException("bundle_empty", dir + " holds none of " + PolicyBundle.FILES);
                }
                Map<String, PolicyBundle.Script> scripts = files.containsKey("manifest.yaml")
                        ? BundleScripts.read(dir, files.get("manifest.yaml")) : Map.of();
                Instant until;
                try {
                    until = Rfc3339.parseOrRelative(expires, Instant.now());
                } catch (IllegalArgumentException e) {
                    throw new ReleaseException("time_invalid", "--expires: " + e.getMessage());
                }
                AtomicWrite.write(out, PolicyBundle.sign(files, scripts, version, until, keys));
                spec.commandLine().getOut().println("signed policy bundle version " + version + " (" + files.keySet()
                        + (scripts.isEmpty() ? "" : ", scripts " + scripts.keySet())
                        + ", " + keys.size() + " signature(s), expires " + Rfc3339.format(until) + "): " + out);
                return ExitCode.OK.code();
            } catch (ReleaseException e) {
                err.println("warden policy sign: " + e.code() + ": " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            } catch (IOException e) {
                err.println("warden policy sign: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
    }

    @Command(name = "pull", description = {"As root: fetch a policy bundle over HTTPS, verify it against",
            "/etc/agent-warden/policy-root.json and swap it in atomically; on any failure the installed one stays."})
    static final class Pull implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "URL", description = "https:// address of the bundle.")
        String url;

        @Option(names = "--max-bytes", defaultValue = "4194304", description = "Largest bundle accepted (default: ${DEFAULT-VALUE}).")
        int maxBytes;

        @Option(names = "--connect-timeout", defaultValue = "10", paramLabel = "SECONDS", description = "Default: ${DEFAULT-VALUE}.")
        long connectSeconds;

        @Option(names = "--deadline", defaultValue = "60", paramLabel = "SECONDS",
                description = "Whole-response deadline (default: ${DEFAULT-VALUE}).")
        long deadlineSeconds;

        @Option(names = "--allow-http-loopback", description = "Accept http:// from 127.0.0.1 (tests only).")
        boolean allowHttpLoopback;

        @Override
        public Integer call() {
            PolicyStore.PullResult r = PolicyStore.managed(Clock.systemUTC()).pull(url, new PolicyStore.PullOptions(
                    allowHttpLoopback, maxBytes, Duration.ofSeconds(connectSeconds), Duration.ofSeconds(deadlineSeconds)));
            if (r.ok()) {
                spec.commandLine().getOut().println(r.message());
                return ExitCode.OK.code();
            }
            spec.commandLine().getErr().println("warden policy pull: refused: " + r.code() + ": " + r.message());
            return ExitCode.FINDINGS.code();
        }
    }

    @Command(name = "status", description = "The installed policy bundle: version, signer, age, source, last pull.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            for (String line : PolicyStore.managed(Clock.systemUTC()).status()) {
                spec.commandLine().getOut().println(line);
            }
            return ExitCode.OK.code();
        }
    }
}
