package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden manifest lint} without a FILE also lints the user layer's file: file:line and key, and its owner rule. */
class UserLayerLintTest {
    @TempDir
    Path home;

    private Path userFile(String yaml, String mode) throws IOException {
        Path dir = Files.createDirectories(home.resolve(".config/agent-warden"));
        Path f = Files.writeString(dir.resolve("manifest.yaml"), yaml);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    private static String lint(Path f, int[] exit) {
        StringWriter out = new StringWriter();
        Integer code = ManifestCommand.Lint.lintUserLayer(new PrintWriter(out, true), f, false);
        exit[0] = code == null ? -1 : code;
        return out.toString();
    }

    @Test
    void userFile_withAnUnknownConcern_isAnErrorAtItsLine() throws IOException {
        Path f = userFile("schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    stop: [ghost]\n", "rw-------");
        int[] exit = new int[1];
        String out = lint(f, exit);
        assertThat(out).contains(f + ":5: error: platforms.claude.stop: unknown concern 'ghost'")
                .contains("(user layer): 1 error(s)");
        assertThat(exit[0]).isEqualTo(ExitCode.FINDINGS.code());
    }

    @Test
    void userScript_isLookedForUnderTheUsersConfigDirectory() throws IOException {
        Path f = userFile("schema_version: 1\nconcerns:\n  a:\n    script: concerns/gone.sh\nplatforms: {}\n", "rw-------");
        int[] exit = new int[1];
        assertThat(lint(f, exit)).contains(f + ":4: error: concerns.a.script: script not found: "
                + f.getParent().resolve("concerns/gone.sh"));
        Path script = Files.createDirectories(f.getParent().resolve("concerns")).resolve("gone.sh");
        WardenProcess.writeScript(script, "#!/bin/sh\n", "rwx------");
        assertThat(lint(f, exit)).contains("(user layer): ok");
        assertThat(exit[0]).isZero();
    }

    @Test
    void userFileWritableByOthers_isAFinding() throws IOException {
        Path f = userFile("schema_version: 1\nextends: default\n", "rw-rw-rw-");
        int[] exit = new int[1];
        assertThat(lint(f, exit)).contains(f + ":0: user layer refused: ").contains("writable by group or others");
        assertThat(exit[0]).isEqualTo(ExitCode.FINDINGS.code());
    }

    @Test
    void noUserFile_isNothingToLint() {
        int[] exit = new int[1];
        assertThat(lint(home.resolve(".config/agent-warden/manifest.yaml"), exit)).isEmpty();
        assertThat(exit[0]).isEqualTo(-1);
    }
}
