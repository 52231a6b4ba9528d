package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The publishing and checking flow through the command line, in process. */
class ReleaseCommandTest {
    static final String AT = "2026-06-01T00:00:00Z";

    @TempDir
    Path tmp;
    String keys;
    String root;
    String manifest;
    String project;
    Path artifact;

    @BeforeEach
    void publish() throws Exception {
        keys = tmp.resolve("keys").toString();
        root = tmp.resolve("trust/root.json").toString();
        manifest = tmp.resolve("rel/manifest.json").toString();
        project = tmp.resolve("project").toString();
        artifact = Files.writeString(tmp.resolve("squad.agent.md"), "<!-- version: 0.13.1 -->\nRoute work.\n");
        ok("release", "keygen", "--out", keys, "--name", "a");
        ok("release", "keygen", "--out", keys, "--name", "b");
        ok("release", "root", "init", "--key", keys + "/a.pub.pem", "--key", keys + "/b.pub.pem", "--threshold", "2",
                "--expires", "2027-01-01T00:00:00Z", "--out", root);
        ok("release", "sign", "--key", keys + "/a.key.pem", root);
        ok("release", "sign", "--key", keys + "/b.key.pem", root);
        ok("release", "add", "--manifest", manifest, "--file", artifact.toString(), "--agent-id", "squad",
                "--agent-version", "0.13.1", "--client-id", "copilot-cli", "--client-version", "1.0.3",
                "--normalization", "squad-template", "--expires", "2026-12-01T00:00:00Z");
    }

    @Test
    void verify_unsignedThenSigned_exit1ThenExit0() throws IOException {
        CliRun unsigned = warden("release", "verify", "--root", root, "--at", AT, "--project-dir", project, manifest);
        assertThat(unsigned.exit()).isEqualTo(1);
        assertThat(unsigned.out()).contains("UNTRUSTED signature_threshold_not_met");

        ok("release", "sign", "--key", keys + "/a.key.pem", manifest);
        ok("release", "sign", "--key", keys + "/b.key.pem", manifest);
        CliRun signed = warden("release", "verify", "--root", root, "--at", AT, "--project-dir", project, manifest);

        assertThat(signed.exit()).as(signed.out() + signed.err()).isZero();
        assertThat(signed.out()).contains("manifest: trusted (version 1").contains("entries: 1")
                .contains("squad agent_version=0.13.1 client=copilot-cli/1.0.3");
        assertThat(Path.of(project, ".warden/state/release/trusted.json")).doesNotExist();
        assertThat(userFloors()).hasSize(1);
    }

    @Test
    void verify_projectFloorDeleted_rollbackStillRefused() throws Exception {
        signManifest();
        ok("release", "verify", "--root", root, "--at", AT, "--project-dir", project, manifest);
        Path older = Files.copy(Path.of(manifest), tmp.resolve("rel/older.json"));
        ok("release", "add", "--manifest", manifest, "--file", artifact.toString(), "--agent-id", "squad",
                "--agent-version", "0.13.2", "--client-id", "copilot-cli", "--client-version", "1.0.3");
        signManifest();
        ok("release", "verify", "--root", root, "--at", AT, "--project-dir", project, manifest);
        deleteTree(Path.of(project, ".warden"));

        CliRun rolledBack = warden("release", "verify", "--root", root, "--at", AT, "--project-dir", project,
                older.toString());

        assertThat(rolledBack.exit()).isEqualTo(1);
        assertThat(rolledBack.out()).contains("UNTRUSTED manifest_rollback")
                .contains(tmp.resolve("user-state/agent-warden/release").toString());
    }

    private List<Path> userFloors() throws IOException {
        try (Stream<Path> files = Files.list(tmp.resolve("user-state/agent-warden/release"))) {
            return files.filter(f -> f.toString().endsWith(".json")).toList();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void lookup_restampedInstall_verifiedByNormalization() throws Exception {
        signManifest();
        Path installed = Files.writeString(tmp.resolve("installed.md"), "<!-- version: 0.14.0 -->\nRoute work.\n");

        CliRun run = lookup("--file", installed.toString());

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("status: FOUND").contains("release_integrity: VERIFIED (normalized:squad-template)");
    }

    @Test
    void lookup_editedInstall_mismatchExit1() throws Exception {
        signManifest();
        Path edited = Files.writeString(tmp.resolve("edited.md"), "<!-- version: 0.13.1 -->\nDo it yourself.\n");

        CliRun run = lookup("--file", edited.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("release_integrity: MISMATCH");
    }

    @Test
    void lookup_unknownVersion_unregisteredExit1() {
        signManifest();

        CliRun run = warden("release", "lookup", "--root", root, "--manifest", manifest, "--at", AT,
                "--project-dir", project, "--agent-version", "9.9.9", "--client-id", "copilot-cli",
                "--client-version", "1.0.3");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("status: NOT_REGISTERED").contains("UNREGISTERED (release_not_registered)");
    }

    @Test
    void lookup_expiredManifest_unregisteredLoudly_haltWhenRequired() {
        signManifest();
        String late = "2026-12-01T00:00:00Z";

        CliRun report = warden("release", "lookup", "--root", root, "--manifest", manifest, "--at", late,
                "--project-dir", project, "--agent-version", "0.13.1", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--file", artifact.toString());
        CliRun halt = warden("release", "lookup", "--root", root, "--manifest", manifest, "--at", late,
                "--project-dir", project, "--agent-version", "0.13.1", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--file", artifact.toString(), "--require-trusted-manifest");

        assertThat(report.exit()).isEqualTo(1);
        assertThat(report.out()).contains("manifest: UNTRUSTED manifest_expired")
                .contains("release_integrity: UNREGISTERED (manifest_expired)")
                .doesNotContain("VERIFIED").doesNotContain("MISMATCH");
        assertThat(halt.exit()).isEqualTo(3);
    }

    @Test
    void rotate_thenVerifyWithNewKey() {
        signManifest();
        ok("release", "keygen", "--out", keys, "--name", "c");
        ok("release", "root", "rotate", "--root", root, "--add-key", keys + "/c.pub.pem", "--remove-key",
                keys + "/a.pub.pem");
        String next = tmp.resolve("trust/2.root.json").toString();
        for (String k : new String[] {"a", "b", "c"}) {
            ok("release", "sign", "--key", keys + "/" + k + ".key.pem", next);
        }
        ok("release", "add", "--manifest", manifest, "--file", artifact.toString(), "--agent-id", "squad",
                "--agent-version", "0.13.2", "--client-id", "copilot-cli", "--client-version", "1.0.3");
        ok("release", "sign", "--key", keys + "/b.key.pem", manifest);
        ok("release", "sign", "--key", keys + "/c.key.pem", manifest);

        CliRun run = warden("release", "verify", "--trust-root", root, "--at", AT, "--project-dir", project, manifest);

        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("manifest: trusted (version 2").contains("root version 2");
    }

    @Test
    void sign_missingKeyFile_exit2WithCode() {
        CliRun run = warden("release", "sign", "--key", tmp.resolve("none.pem").toString(), manifest);

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("warden release sign: key_unreadable");
    }

    @Test
    void rootInit_badExpiry_exit2WithCode() {
        CliRun run = warden("release", "root", "init", "--key", keys + "/a.pub.pem", "--expires", "next tuesday",
                "--out", tmp.resolve("r.json").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("time_invalid");
    }

    @Test
    void verify_atNotRfc3339_exit2WithCode() {
        CliRun run = warden("release", "verify", "--root", root, "--at", "5d", "--project-dir", project, manifest);

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("time_invalid");
    }

    private void signManifest() {
        ok("release", "sign", "--key", keys + "/a.key.pem", manifest);
        ok("release", "sign", "--key", keys + "/b.key.pem", manifest);
    }

    private CliRun lookup(String... extra) {
        String[] base = {"release", "lookup", "--root", root, "--manifest", manifest, "--at", AT, "--project-dir",
            project, "--agent-version", "0.13.1", "--client-id", "copilot-cli", "--client-version", "1.0.3"};
        String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return warden(args);
    }

    /** {@code warden ARGS} in process, with the user's state in {@code tmp/user-state}. */
    private CliRun warden(String... args) {
        return CliRun.in(Map.of("XDG_STATE_HOME", tmp.resolve("user-state").toString()), args);
    }

    private void ok(String... args) {
        CliRun run = warden(args);
        assertThat(run.exit()).as(String.join(" ", args) + "\n" + run.out() + run.err()).isZero();
    }
}
