package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code warden canonicalize} and {@code warden release} as real processes running the built jar, with
 * the JVM flags of {@code bin/warden}; cases side by side, each in its own directory and user state.
 */
@Execution(ExecutionMode.CONCURRENT)
class ReleaseCliIT {
    @TempDir
    Path tmp;

    record Result(int exit, byte[] out, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    @Test
    void canonicalize_stdin_writesUtf8BytesWhateverTheLocale() throws Exception {
        byte[] input = "{\"\u20ac\":\"\u00e9\\u2028\",\"a\":[1E2,-0.0]}".getBytes(StandardCharsets.UTF_8);

        Result r = warden(input, "canonicalize");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("{\"a\":[100,0],\"\u20ac\":\"\u00e9\u2028\"}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void canonicalize_loneSurrogate_exit2WithCode() throws Exception {
        Result r = warden("[\"\\udc00\"]".getBytes(StandardCharsets.UTF_8), "canonicalize", "-");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("json_lone_surrogate");
    }

    @Test
    void release_publishVerifyLookup_endToEnd() throws Exception {
        String keys = tmp.resolve("keys").toString();
        String root = tmp.resolve("root.json").toString();
        String manifest = tmp.resolve("manifest.json").toString();
        Path artifact = Files.writeString(tmp.resolve("squad.agent.md"), "<!-- version: 0.13.1 -->\nx\n");
        ok("release", "keygen", "--out", keys, "--name", "k");
        ok("release", "root", "init", "--key", keys + "/k.pub.pem", "--expires", "3650d", "--out", root);
        ok("release", "sign", "--key", keys + "/k.key.pem", root);
        ok("release", "add", "--manifest", manifest, "--file", artifact.toString(), "--agent-id", "squad",
                "--agent-version", "0.13.1", "--client-id", "copilot-cli", "--client-version", "1.0.3",
                "--expires", "365d");
        ok("release", "sign", "--key", keys + "/k.key.pem", manifest);

        Result verified = warden(new byte[0], "release", "verify", "--root", root, "--project-dir", tmp.toString(),
                manifest);
        Result lookup = warden(new byte[0], "release", "lookup", "--root", root, "--manifest", manifest,
                "--project-dir", tmp.toString(), "--agent-version", "0.13.1", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--file", artifact.toString());

        assertThat(verified.exit()).as(verified.text() + verified.err()).isZero();
        assertThat(lookup.exit()).as(lookup.text() + lookup.err()).isZero();
        assertThat(lookup.text()).contains("release_integrity: VERIFIED (raw)");
        assertThat(tmp.resolve(".warden/state/release/trusted.json")).doesNotExist();
        assertThat(tmp.resolve("user-state/agent-warden/release")).isDirectoryContaining("glob:**.json");
    }

    private void ok(String... args) throws Exception {
        Result r = warden(new byte[0], args);
        assertThat(r.exit()).as(String.join(" ", args) + "\n" + r.text() + r.err()).isZero();
    }

    private Result warden(byte[] stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(WardenProcess.java().toString()));
        command.addAll(WardenProcess.flagsFor(List.of(args)));
        command.addAll(List.of("-Dfile.encoding=ANSI_X3.4-1968", "-jar", WardenProcess.jar().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(tmp.toFile());
        builder.environment().put("LC_ALL", "C");
        builder.environment().remove("WARDEN_PROJECT_DIR");
        builder.environment().put("XDG_STATE_HOME", tmp.resolve("user-state").toString());
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = builder.redirectError(err.toFile()).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin);
        } catch (IOException ignored) {
            // the command may not read stdin
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out, Files.readString(err));
    }
}
