package dev.agentwarden.cli;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.trust.TrustException;
import dev.agentwarden.trust.TrustRecord;
import dev.agentwarden.trust.TrustStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden init}: a commented {@code .warden/manifest.yaml} extending the default, an example
 * process concern, and {@code .warden/.gitignore} ({@link ProjectSkeleton}). It never overwrites:
 * if any of them exists, nothing is written. Then it trusts what it wrote, as {@code install} does
 * (the user ran it and the files are Warden's own text), unless it looks like an agent's tool call
 * or {@code --no-trust} is given; a file that changed between the write and the trust is not trusted.
 * It never replaces a trust record: when the project has one (the user's trust of an earlier
 * manifest, usable or not), that record stays as it is and only {@code warden trust} changes it.
 */
@Command(name = "init", description = "Write a commented .warden/manifest.yaml extending the default, an example "
        + "process concern and .warden/.gitignore, and trust them; never overwrites.")
final class InitCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CwdProjectOption project;

    @Option(names = "--no-trust", description = "Write the files but do not trust them (run `warden trust` later).")
    boolean noTrust;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path root = project.root();
        if (!Files.isDirectory(root)) {
            err.println("warden init: " + root + " is not a directory");
            return ExitCode.UNREADABLE.code();
        }
        for (ProjectSkeleton.File f : ProjectSkeleton.files()) {
            if (Files.exists(f.under(root), LinkOption.NOFOLLOW_LINKS)) {
                err.println("warden init: " + f.under(root) + " exists; nothing written (init never overwrites: move it"
                        + " away, or edit it yourself)");
                return ExitCode.FINDINGS.code();
            }
        }
        for (ProjectSkeleton.File f : ProjectSkeleton.files()) {
            try {
                write(root, f);
            } catch (IOException e) {
                err.println("warden init: cannot write " + f.under(root) + ": " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            out.println("wrote " + f.path());
        }
        Map<String, String> env = WardenCli.env(spec);
        String recorded = existingTrust(root, env);
        if (!noTrust && recorded != null) {
            out.println("not trusted: " + recorded + "; init leaves it as it is (trust changes only when you run"
                    + " `warden trust` in " + root + ")");
            return ExitCode.OK.code();
        }
        String refusal = noTrust ? null : TrustCommand.agentRefusal(env, TrustCommand.stdinIsTerminal());
        if (noTrust || refusal != null) {
            out.println("not trusted" + (refusal != null ? " (this looks like an agent's tool call)" : "")
                    + ": the manifest takes effect once you run `warden trust` in " + root);
            return ExitCode.OK.code();
        }
        return trust(root, env, out, err).code();
    }

    /**
     * What trust the project already has, as a person reads it, or {@code null} when the trust store
     * holds no record for it. A record that cannot be read counts: init never writes over it.
     */
    static String existingTrust(Path root, Map<String, String> env) {
        String realRoot = TrustStore.realRoot(root.toString());
        TrustStore.Lookup lookup = TrustStore.forEnv(env).lookup(realRoot);
        if (lookup.record() != null) {
            return "a trust record for " + realRoot + " exists (trusted " + lookup.record().trustedAt() + ")";
        }
        return lookup.problem() == null ? null : "a trust record for " + realRoot + " exists but is not usable ("
                + lookup.problem() + ")";
    }

    /** Creates {@code f} new (never through a link), its directories as needed. */
    private static void write(Path root, ProjectSkeleton.File f) throws IOException {
        Path file = f.under(root);
        StateFiles.ensureDirectory(root, file.getParent());
        Files.write(file, f.text().getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        if (f.executable()) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** Trusts the project as written, and only if the trusted hashes are those of the text init wrote. */
    private static ExitCode trust(Path root, Map<String, String> env, PrintWriter out, PrintWriter err) {
        TrustStore store = TrustStore.forEnv(env);
        TrustRecord record;
        try {
            record = store.trust(root, Clock.systemUTC());
        } catch (TrustException | ManifestException e) {
            err.println("warden init: files written but not trusted: " + e.getMessage() + " (fix it, then run `warden trust`)");
            return ExitCode.FINDINGS;
        }
        for (ProjectSkeleton.File f : ProjectSkeleton.files()) {
            String wrote = Sha256.hex(f.text().getBytes(StandardCharsets.UTF_8));
            String trusted = f.path().equals(ProjectSkeleton.MANIFEST) ? record.manifestSha256() : record.files().get(f.path());
            if (trusted != null && !trusted.equals(wrote)) {
                try {
                    store.revoke(root);
                } catch (TrustException ignored) {
                    // the warning below stands either way
                }
                err.println("warden init: " + f.path() + " changed after init wrote it; trust revoked. Read it, then run"
                        + " `warden trust`");
                return ExitCode.FINDINGS;
            }
        }
        out.println("trusted " + ProjectSkeleton.MANIFEST + " and " + record.files().size()
                + " script file(s) as written; after you edit them, run `warden trust` again");
        return ExitCode.OK;
    }
}
