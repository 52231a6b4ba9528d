package dev.agentwarden.cli;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.release.ReleaseKey;
import dev.agentwarden.release.ReleaseLookup;
import dev.agentwarden.release.KeyFiles;
import dev.agentwarden.release.Publisher;
import dev.agentwarden.release.ReleaseFloor;
import dev.agentwarden.release.ReleaseException;
import dev.agentwarden.release.ReleaseMatch;
import dev.agentwarden.release.Rfc3339;
import dev.agentwarden.release.SignedReleaseStore;
import dev.agentwarden.release.Verification;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code warden release keygen|root init|root rotate|add|sign|verify|lookup}. */
@Command(name = "release", description = "Publish and verify the signed release manifest (TUF-style root, DSSE envelope).",
        subcommands = {ReleaseCommand.Keygen.class, ReleaseCommand.Root.class, ReleaseCommand.Add.class,
                ReleaseCommand.Sign.class, ReleaseCommand.Verify.class, ReleaseCommand.Lookup.class})
final class ReleaseCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Shared run-and-report for publishing steps: a {@link ReleaseException} becomes exit 2 with its code. */
    abstract static class Step implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public final Integer call() {
            try {
                return run(spec.commandLine().getOut());
            } catch (ReleaseException e) {
                spec.commandLine().getErr().println("warden release " + spec.name() + ": " + e.code() + ": "
                        + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }

        abstract int run(PrintWriter out) throws ReleaseException;

        static Instant time(String text, String option, Instant now) throws ReleaseException {
            try {
                return Rfc3339.parseOrRelative(text, now);
            } catch (IllegalArgumentException e) {
                throw new ReleaseException("time_invalid", option + ": " + e.getMessage());
            }
        }
    }

    @Command(name = "keygen", description = "Generate an Ed25519 key pair: <name>.key.pem (PKCS#8) and <name>.pub.pem (SPKI).")
    static final class Keygen extends Step {
        @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory for the key files.")
        Path dir;

        @Option(names = "--name", paramLabel = "NAME", description = "File name stem (default: ed25519-<keyid prefix>).")
        String name;

        @Override
        int run(PrintWriter out) throws ReleaseException {
            KeyFiles.Generated generated = KeyFiles.generate(dir, name);
            out.println("keyid: " + generated.keyId());
            out.println("private key: " + generated.privateKeyFile() + " (keep it secret)");
            out.println("public key: " + generated.publicKeyFile());
            return ExitCode.OK.code();
        }
    }

    @Command(name = "root", description = "Create or rotate the trust root.",
            subcommands = {Root.Init.class, Root.Rotate.class})
    static final class Root implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }

        @Command(name = "init", description = "Write an unsigned version-1 root.json; then sign it with 'warden release sign'.")
        static final class Init extends Step {
            @Option(names = "--key", required = true, paramLabel = "PEM",
                    description = "A root key (public or private PEM); repeat for each key.")
            List<Path> keys;

            @Option(names = "--threshold", defaultValue = "1", description = "Distinct keys that must sign (default: ${DEFAULT-VALUE}).")
            int threshold;

            @Option(names = "--expires", required = true, paramLabel = "TIME",
                    description = "RFC 3339 time, or a span from now such as 365d.")
            String expires;

            @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write root.json.")
            Path out;

            @Override
            int run(PrintWriter out) throws ReleaseException {
                Publisher.RootWritten root = Publisher.initRoot(keys, threshold,
                        time(expires, "--expires", Instant.now()), this.out);
                printRoot(out, root);
                return ExitCode.OK.code();
            }
        }

        @Command(name = "rotate", description = {"Write the unsigned next root version beside the current one.",
                "It is trusted once a threshold of the current keys and a threshold of its own keys sign it."})
        static final class Rotate extends Step {
            @Option(names = "--root", required = true, paramLabel = "FILE", description = "The current root.json.")
            Path current;

            @Option(names = "--add-key", paramLabel = "PEM", description = "Key to add; repeatable.")
            List<Path> add = new ArrayList<>();

            @Option(names = "--remove-key", paramLabel = "KEYID|PEM", description = "Key to remove; repeatable.")
            List<String> remove = new ArrayList<>();

            @Option(names = "--threshold", description = "New threshold (default: unchanged).")
            Integer threshold;

            @Option(names = "--expires", paramLabel = "TIME", description = "New expiry (default: unchanged).")
            String expires;

            @Option(names = "--out", paramLabel = "FILE", description = "Default: <N+1>.root.json beside the current root.")
            Path out;

            @Override
            int run(PrintWriter out) throws ReleaseException {
                Publisher.RootWritten root = Publisher.rotateRoot(current, add, remove, threshold,
                        expires == null ? null : time(expires, "--expires", Instant.now()), this.out);
                printRoot(out, root);
                return ExitCode.OK.code();
            }
        }

        private static void printRoot(PrintWriter out, Publisher.RootWritten root) {
            out.println("wrote " + root.file() + ": root version " + root.version() + ", threshold " + root.threshold()
                    + " of " + root.keyIds().size() + " key(s), expires " + Rfc3339.format(root.expires())
                    + ", unsigned");
            for (String keyId : root.keyIds()) {
                out.println("  key " + keyId);
            }
        }
    }

    @Command(name = "add", description = "Register an artifact in a release manifest (created if missing).")
    static final class Add extends Step {
        @Option(names = "--manifest", required = true, paramLabel = "FILE", description = "The release manifest (JSON).")
        Path manifest;

        @Option(names = "--file", required = true, paramLabel = "ARTIFACT", description = "The released bytes to hash.")
        Path artifact;

        @Option(names = "--agent-id", required = true, description = "The agent the artifact is a release of (squad).")
        String agentId;

        @Mixin
        ReleaseKeyOptions release;

        @Option(names = "--normalization", paramLabel = "PROFILE", description = "Also record the hash after this profile (squad-template).")
        String normalization;

        @Option(names = "--expires", paramLabel = "TIME", description = "Manifest expiry; required when creating.")
        String expires;

        @Option(names = "--version", paramLabel = "N", description = "Manifest version (default: next one after a signed manifest).")
        Long version;

        @Option(names = "--replace", description = "Replace an entry with the same key.")
        boolean replace;

        @Override
        int run(PrintWriter out) throws ReleaseException {
            ReleaseKey key = new ReleaseKey(release.agentVersion, release.clientId, release.clientVersion);
            Instant expiry = expires == null ? null : time(expires, "--expires", Instant.now());
            Publisher.ManifestWritten written = Publisher.add(manifest, artifact, agentId, key,
                    new Publisher.AddOptions(normalization, expiry, version, replace));
            out.println("registered " + written.entry().agentId() + " (agent_version " + release.agentVersion + ", client "
                    + release.clientId + " " + release.clientVersion + ") sha256 " + written.entry().sha256() + ", "
                    + written.entry().length() + " bytes"
                    + (written.entry().normalization() == null ? ""
                    : ", " + written.entry().normalization() + " sha256 " + written.entry().normalizedSha256()));
            out.println("wrote " + written.file() + ": manifest version " + written.version() + ", "
                    + written.entries() + " entr" + (written.entries() == 1 ? "y" : "ies") + ", expires "
                    + Rfc3339.format(written.expires()) + ", unsigned"
                    + (written.droppedSignatures() > 0 ? " (" + written.droppedSignatures()
                    + " old signature(s) dropped: re-sign)" : ""));
            return ExitCode.OK.code();
        }
    }

    @Command(name = "sign", description = "Add a signature to a root.json or a release manifest.")
    static final class Sign extends Step {
        @Option(names = "--key", required = true, paramLabel = "PEM", description = "Ed25519 private key (PKCS#8 PEM).")
        Path key;

        @Option(names = "--out", paramLabel = "FILE", description = "Write here instead of updating FILE.")
        Path out;

        @Parameters(paramLabel = "FILE", description = "The root.json or release manifest to sign.")
        Path file;

        @Override
        int run(PrintWriter out) throws ReleaseException {
            Publisher.Signed signed = Publisher.sign(file, KeyFiles.readSigningKey(key), this.out);
            out.println((signed.replaced() ? "re-signed " : "signed ") + signed.kind() + " " + signed.file()
                    + " with key " + signed.keyId() + " (" + signed.signatures() + " signature(s))");
            if (!signed.listed()) {
                out.println("note: this key is not listed in the root it signed (expected only when a previous root's"
                        + " key signs a rotation)");
            }
            return ExitCode.OK.code();
        }
    }

    /** The key a release is registered and looked up by (docs/integrity-gate.md: agent version, client id, client version). */
    static final class ReleaseKeyOptions {
        @Option(names = "--agent-version", required = true, description = "The agent/template version.")
        String agentVersion;

        @Option(names = "--client-id", required = true, description = "The host client (copilot-cli).")
        String clientId;

        @Option(names = "--client-version", required = true, description = "The host client's version.")
        String clientVersion;

        ReleaseKey key() {
            return new ReleaseKey(agentVersion, clientId, clientVersion);
        }
    }

    /** Options shared by verify and lookup. */
    static final class TrustOptions {
        @Option(names = {"--root", "--trust-root"}, required = true, paramLabel = "FILE", description = "The trusted root.json.")
        Path root;

        @Option(names = "--at", paramLabel = "TIME", description = "Verification time, RFC 3339 (default: now).")
        String at;

        @Option(names = "--project-dir", paramLabel = "DIR",
                description = "Project whose last trusted versions are checked (kept in"
                        + " ${XDG_STATE_HOME:-~/.local/state}/agent-warden/release/; default: resolved as hooks do).")
        String projectDir;

        @Option(names = "--no-record", description = "Check against the recorded versions without raising them.")
        boolean noRecord;

        SignedReleaseStore open(Path manifest, Map<String, String> env) throws ReleaseException {
            Clock clock = Clock.systemUTC();
            if (at != null) {
                try {
                    clock = Clock.fixed(Rfc3339.parse(at), ZoneOffset.UTC);
                } catch (IllegalArgumentException e) {
                    throw new ReleaseException("time_invalid", "--at: " + e.getMessage());
                }
            }
            String project = WorkspaceRoot.resolve(projectDir, Map.of(), env, Hosts.projectDirVariables());
            return SignedReleaseStore.open(manifest, root, ReleaseFloor.forProject(Path.of(project), env), !noRecord,
                    clock);
        }
    }

    @Command(name = "verify", description = {"Verify a release manifest against a trust root.",
            "Exit 0 when trusted, 1 when not (the reason code is printed)."})
    static final class Verify extends Step {
        @Mixin
        TrustOptions trust;

        @Parameters(paramLabel = "MANIFEST", description = "The signed release manifest to verify.")
        Path manifest;

        @Override
        int run(PrintWriter out) throws ReleaseException {
            Verification v = trust.open(manifest, WardenCli.env(spec)).verification();
            printVerification(out, v);
            if (v.trusted()) {
                out.println("entries: " + v.entries().size());
                for (var e : v.entries()) {
                    out.println("  " + e.agentId() + " agent_version=" + e.agentVersion() + " client=" + e.clientId()
                            + "/" + e.clientVersion() + " sha256=" + e.sha256()
                            + (e.normalization() == null ? "" : " " + e.normalization() + "=" + e.normalizedSha256()));
                }
            }
            return v.trusted() ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }
    }

    @Command(name = "lookup", description = {"Look up the registered release for a key, and compare a file with it.",
            "Exit 0 found (and VERIFIED with --file); 1 not registered, MISMATCH or untrusted manifest;",
            "3 untrusted manifest with --require-trusted-manifest."})
    static final class Lookup extends Step {
        @Mixin
        TrustOptions trust;

        @Option(names = "--manifest", required = true, paramLabel = "FILE", description = "The release manifest (JSON).")
        Path manifest;

        @Mixin
        ReleaseKeyOptions release;

        @Option(names = "--file", paramLabel = "ARTIFACT", description = "Artifact to compare with the registered release.")
        Path artifact;

        @Option(names = "--require-trusted-manifest", description = "An untrusted manifest is a halt (exit 3).")
        boolean requireTrusted;

        @Override
        int run(PrintWriter out) throws ReleaseException {
            SignedReleaseStore store = trust.open(manifest, WardenCli.env(spec));
            printVerification(out, store.verification());
            ReleaseLookup lookup = store.lookup(release.key());
            out.println("status: " + lookup.status() + (lookup.reason() == null ? "" : " (" + lookup.reason() + ")"));
            byte[] bytes = artifact == null ? null : Publisher.readArtifact(artifact);
            switch (lookup.status()) {
                case FOUND -> {
                    var entry = lookup.entry();
                    out.println("agent_id: " + entry.agentId());
                    out.println("sha256: " + entry.sha256());
                    out.println("length: " + entry.length());
                    if (entry.normalization() != null) {
                        out.println("normalization: " + entry.normalization());
                        out.println("normalized_sha256: " + entry.normalizedSha256());
                    }
                    if (bytes == null) {
                        return ExitCode.OK.code();
                    }
                    ReleaseMatch match = ReleaseMatch.compare(entry, bytes);
                    out.println("file: " + artifact);
                    out.println("file_sha256: " + match.sha256());
                    out.println("file_length: " + match.length());
                    if (match.normalizedSha256() != null) {
                        out.println("file_normalized_sha256: " + match.normalizedSha256());
                    }
                    out.println("release_integrity: " + (match.verified() ? "VERIFIED (" + match.how() + ")" : "MISMATCH"));
                    return match.verified() ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
                }
                case NOT_REGISTERED -> {
                    out.println("release_integrity: UNREGISTERED (" + lookup.reason() + ")");
                    return ExitCode.FINDINGS.code();
                }
                default -> {
                    out.println("release_integrity: UNREGISTERED (" + lookup.reason() + ")");
                    return requireTrusted ? ExitCode.HALT.code() : ExitCode.FINDINGS.code();
                }
            }
        }
    }

    static void printVerification(PrintWriter out, Verification v) {
        if (v.trusted()) {
            out.println("manifest: trusted (version " + v.manifestVersion() + ", expires " + Rfc3339.format(v.expires())
                    + ", root version " + v.rootVersion() + ", " + v.signers().size() + " signer(s), verified at "
                    + Rfc3339.format(v.at().truncatedTo(ChronoUnit.SECONDS)) + ")");
        } else {
            out.println("manifest: UNTRUSTED " + v.reason() + ": " + v.detail());
        }
    }
}
