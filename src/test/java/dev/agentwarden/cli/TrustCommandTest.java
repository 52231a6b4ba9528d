package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.TestTrust;
import dev.agentwarden.trust.TrustStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden trust}, {@code --show} and {@code --revoke} against a trust store in a temp dir. */
class TrustCommandTest {
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              check: {script: .warden/concerns/check.sh}
            platforms:
              claude:
                stop: [check]
            native_event_aliases:
              claude: {Stop: stop}
            """;

    @TempDir
    Path tmp;

    private Path project;
    private TrustStore store;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void setUp() throws Exception {
        project = Files.createDirectories(tmp.resolve("project/.warden/concerns")).getParent().getParent().toRealPath();
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST);
        Path script = WardenProcess.writeScript(project.resolve(".warden/concerns/check.sh"), "#!/bin/sh\nexit 0\n", "rwxr-xr-x");
        store = new TrustStore(tmp.resolve("state/agent-warden/trust"));
    }

    private PrintWriter out() {
        return new PrintWriter(out, true);
    }

    private PrintWriter err() {
        return new PrintWriter(err, true);
    }

    @Test
    void retrust_afterAnEdit_showsTheDiffSinceTheLastTrust_thenTrusts() throws Exception {
        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.OK);
        Path manifest = project.resolve(".warden/manifest.yaml");
        String before = java.nio.file.Files.readString(manifest);
        java.nio.file.Files.writeString(manifest, before + "# reviewed by the team\n");
        out.getBuffer().setLength(0);

        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.OK);

        assertThat(out.toString()).startsWith("changes to .warden/manifest.yaml since it was last trusted"
                + " (2026-01-01T00:00:00Z):\n  @@ ").contains("\n  + # reviewed by the team\n")
                .doesNotContain("\n  - ").contains("\ntrusted " + manifest + "\n");
        out.getBuffer().setLength(0);
        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).startsWith(".warden/manifest.yaml unchanged since it was last trusted");
    }

    @Test
    void trust_printsManifestAndScriptHashes_andShowSaysCurrent() {
        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.OK);

        assertThat(out.toString()).startsWith("first trust of .warden/manifest.yaml in " + project + "; what it says:\n")
                .contains("\ntrusted " + project.resolve(".warden/manifest.yaml") + "\n")
                .containsPattern("manifest \\.warden/manifest\\.yaml  sha256:[0-9a-f]{64}\n")
                .containsPattern("script   \\.warden/concerns/check\\.sh  sha256:[0-9a-f]{64}\n");
        out.getBuffer().setLength(0);
        assertThat(TrustCommand.show(store, project, out())).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("(trusted 2026-01-01T00:00:00Z)").contains("check.sh").contains("  current")
                .endsWith("in force as trusted\n");
    }

    @Test
    void show_afterScriptEdit_findsItChanged() throws Exception {
        TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err());
        Files.writeString(project.resolve(".warden/concerns/check.sh"), "#!/bin/sh\nexit 1\n");
        out.getBuffer().setLength(0);

        assertThat(TrustCommand.show(store, project, out())).isEqualTo(ExitCode.FINDINGS);
        assertThat(out.toString()).contains("check.sh").contains("CHANGED").contains("changed since trusted");
    }

    @Test
    void show_untrustedProject_exitsFindings() {
        assertThat(TrustCommand.show(store, project, out())).isEqualTo(ExitCode.FINDINGS);
        assertThat(out.toString()).contains("no trust record for " + project);
    }

    @Test
    void trust_manifestWithErrors_trustsNothing() throws Exception {
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST.replace("stop: [check]", "stop: ghost"));

        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.FINDINGS);
        assertThat(err.toString()).contains("manifest has errors, not trusted").contains("platforms.claude.stop");
        assertThat(Files.exists(store.dir())).isFalse();
    }

    /** Issue 28 item 12: an unknown chain entry does not stop the manifest; trust says which entry dispatch skips. */
    @Test
    void trust_chainEntryMistake_trustsAndNamesTheSkippedEntry() throws Exception {
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST.replace("stop: [check]", "stop: [check, ghost]"));

        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.OK);
        assertThat(err.toString()).contains("warning: ").contains("platforms.claude.stop: unknown concern 'ghost'")
                .contains("skipped at dispatch");
    }

    @Test
    void trust_noProjectManifest_isUnreadable() throws Exception {
        Files.delete(project.resolve(".warden/manifest.yaml"));

        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.UNREADABLE);
        assertThat(err.toString()).contains("no .warden/manifest.yaml in " + project + ": nothing to trust");
    }

    @Test
    void trust_storeWritableByOthers_isRefused() throws Exception {
        Files.createDirectories(store.dir());
        Files.setPosixFilePermissions(store.dir(), PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThat(TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err())).isEqualTo(ExitCode.UNREADABLE);
        assertThat(err.toString()).contains("the trust store is not private");
    }

    @Test
    void revoke_forgetsTheRecord() {
        TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err());

        assertThat(TrustCommand.revoke(store, project, out(), err())).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("revoked trust for " + project);
        assertThat(TrustCommand.show(store, project, out())).isEqualTo(ExitCode.FINDINGS);
    }

    @Test
    void trustStore_files_areOwnerOnly() throws Exception {
        TrustCommand.trust(store, project, TestTrust.CLOCK, out(), err());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store.dir()))).isEqualTo("rwx------");
        try (var files = Files.list(store.dir())) {
            assertThat(files.toList()).hasSize(2).allSatisfy(f ->
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------"));
        }
    }

    @Test
    void cli_showAndRevokeTogether_isUsageError() {
        CliRun r = CliRun.of("trust", "--show", "--revoke", "--project-dir", project.toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--show and --revoke exclude each other");
    }

    @Test
    void trust_fromAgentToolCallWithoutTerminal_isRefusedUnlessYes() {
        org.junit.jupiter.api.Assumptions.assumeFalse(TrustCommand.stdinIsTerminal(), "needs stdin that is not a terminal");
        java.util.Map<String, String> env = java.util.Map.of("HOME", tmp.toString(),
                "XDG_STATE_HOME", tmp.resolve("state").toString(), "CLAUDECODE", "1");
        String[] args = {"trust", "--project-dir", project.toString()};

        int refused = WardenCli.execute(args, out(), err(), env);

        assertThat(refused).isEqualTo(2);
        assertThat(err.toString()).contains("CLAUDECODE is set").contains("in your own terminal").contains("--yes");
        assertThat(tmp.resolve("state/agent-warden/trust")).doesNotExist();

        int trusted = WardenCli.execute(new String[] {"trust", "--yes", "--project-dir", project.toString()}, out(), err(), env);

        assertThat(trusted).isZero();
        assertThat(out.toString()).contains("trusted ");
    }

    @Test
    void agentRefusal_needsBothAHostMarkerAndNoTerminal() {
        assertThat(TrustCommand.agentRefusal(java.util.Map.of("CODEX_SANDBOX", "seatbelt"), false)).contains("CODEX_SANDBOX");
        assertThat(TrustCommand.agentRefusal(java.util.Map.of("CLAUDECODE", "1"), true)).isNull();
        assertThat(TrustCommand.agentRefusal(java.util.Map.of("HOME", "/home/dev"), false)).isNull();
    }
}
