package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code WARDEN_CAPTURE_DIR}: one private file per event, never through a link or into someone else's directory. */
class CaptureTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T11:24:37.123Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    private String noVerify() {
        return Json.write(HostPayloads.claude("PreToolUse", "cwd", tmp.resolve("proj").toString(), "tool_name", "Bash",
                "tool_input", Map.of("command", "git commit --no-verify -m x")));
    }

    private InProcessDispatch.Response dispatch(Path captureDir, String stdin, String... env) throws IOException {
        Files.createDirectories(tmp.resolve("proj"));
        Map<String, String> vars = new java.util.HashMap<>();
        if (captureDir != null) {
            vars.put("WARDEN_CAPTURE_DIR", captureDir.toString());
        }
        for (int i = 0; i < env.length; i += 2) {
            vars.put(env[i], env[i + 1]);
        }
        return new InProcessDispatch(tmp.resolve("cache"), CLOCK, vars).run("claude", stdin,
                "--project-dir", tmp.resolve("proj").toString());
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void capture_eachEvent_exactlyOne0600FileNamedHostEventTime_holdingTheRawStdin() throws IOException {
        Path dir = tmp.resolve("captures");
        String payload = noVerify();

        InProcessDispatch.Response first = dispatch(dir, payload);
        InProcessDispatch.Response second = dispatch(dir, payload);

        List<Path> files = files(dir);
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly(
                "claude-PreToolUse-2026-12-01T11-24-37.123Z-1.json", "claude-PreToolUse-2026-12-01T11-24-37.123Z.json");
        for (Path f : files) {
            assertThat(Files.readString(f, StandardCharsets.UTF_8)).isEqualTo(payload);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).as("created private")
                .isEqualTo("rwx------");
        assertThat(first.stderr()).doesNotContain("capture");
        assertThat(first.stdout()).contains("\"permissionDecision\":\"deny\"").isEqualTo(second.stdout());
    }

    @Test
    void capture_unset_savesNothing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("captures"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));

        dispatch(null, noVerify());

        assertThat(files(dir)).isEmpty();
    }

    @Test
    void capture_throughSymlinkedDir_isRefused_answerUnchanged() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real"));
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        InProcessDispatch.Response plain = dispatch(null, noVerify());

        InProcessDispatch.Response r = dispatch(link, noVerify());

        assertThat(files(real)).isEmpty();
        assertThat(r.stdout()).isEqualTo(plain.stdout());
        assertThat(r.exitCode()).isEqualTo(plain.exitCode());
        assertThat(r.stderr()).contains("warden: capture: not saved: " + link + " is a symlink")
                .contains("the hook answer is unchanged");
    }

    @Test
    void capture_dirWritableByOthers_isRefused() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

        InProcessDispatch.Response r = dispatch(dir, noVerify());

        assertThat(files(dir)).isEmpty();
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).contains("warden: capture: not saved: ").contains("is writable by group or others");
    }

    @Test
    void capture_dirOwnedByAnotherUser_isRefused() throws IOException {
        assumeThat(OwnedPath.currentUid()).as("only root can give a directory away").isZero();
        Path dir = Files.createDirectories(tmp.resolve("theirs"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Files.setAttribute(dir, "unix:uid", 65534);

        InProcessDispatch.Response r = dispatch(dir, noVerify());

        assertThat(files(dir)).isEmpty();
        assertThat(r.stderr()).contains("is owned by uid 65534");
    }

    @Test
    void capture_plantedLinkAtTheFileName_isNotFollowed() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("captures"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path target = tmp.resolve("victim.txt");
        Files.writeString(target, "keep");
        Files.createSymbolicLink(dir.resolve("claude-PreToolUse-2026-12-01T11-24-37.123Z.json"), target);

        dispatch(dir, noVerify());

        assertThat(Files.readString(target)).isEqualTo("keep");
        assertThat(dir.resolve("claude-PreToolUse-2026-12-01T11-24-37.123Z-1.json")).isRegularFile();
    }

    @Test
    void capture_payloadOverTheCap_notSaved_andSaysSo() throws IOException {
        Path dir = tmp.resolve("captures");

        InProcessDispatch.Response r = dispatch(dir, noVerify(), "WARDEN_MAX_PAYLOAD_BYTES", "100");

        assertThat(Files.exists(dir) ? files(dir) : List.of()).isEmpty();
        assertThat(r.stderr()).contains("warden: capture: nothing saved (payload_too_large");
    }
}
