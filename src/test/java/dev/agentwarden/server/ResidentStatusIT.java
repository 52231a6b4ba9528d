package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.ResidentProcess;
import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident's status query ({@code POST /status}) as {@code warden doctor} asks it: only after
 * the proof, only of an endpoint file and directory that are this user's alone.
 */
class ResidentStatusIT {
    @TempDir
    Path tmp;

    @Test
    void status_runningResident_answersPidStartAndEventsAnswered() throws Exception {
        Path cache = tmp.resolve("cache");
        try (ResidentProcess resident = ResidentProcess.start(cache, 60)) {
            ResidentStatus.Answer a = ResidentStatus.query(ResidentProcess.dirFor(cache), ResidentProcess.jarKey(),
                    Duration.ofSeconds(5));

            assertThat(a.state()).as(a.detail()).isEqualTo(ResidentStatus.State.RUNNING);
            assertThat(a.pid()).isEqualTo(resident.endpoint().pid());
            assertThat(a.startedAt()).isPositive().isLessThanOrEqualTo(System.currentTimeMillis());
            assertThat(a.forwarded()).isZero();

            WardenProcess.Result doctor = WardenProcess.run(List.of(), List.of("doctor", "--host", "claude", "--scope",
                    "project", "--project-dir", tmp.toString()), Map.of("HOME", tmp.toString(), "WARDEN_CACHE_DIR",
                    cache.toString(), "WARDEN_NO_ARCHIVE", "1"), new byte[0], tmp);
            assertThat(doctor.stdout()).contains("running, pid " + a.pid() + ", up ").contains("answered 0 event(s)");
        }
    }

    @Test
    void status_endpointFileWritableByOthers_isNotBelieved() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("resident"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        String key = "0123456789abcdef";
        Path endpoint = Files.writeString(dir.resolve(key + ".endpoint"), "1 " + "a".repeat(64) + " "
                + ProcessHandle.current().pid() + " 1 " + "b".repeat(64) + "\n");
        Files.setPosixFilePermissions(endpoint, PosixFilePermissions.fromString("rw--w--w-"));

        ResidentStatus.Answer a = ResidentStatus.query(dir, key, Duration.ofSeconds(1));

        assertThat(a.state()).isEqualTo(ResidentStatus.State.UNSAFE);
        assertThat(a.detail()).contains("endpoint file").contains("writable by group or others");
    }

    @Test
    void status_sharedDirectory_isNotBelieved() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("resident"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

        ResidentStatus.Answer a = ResidentStatus.query(dir, "0123456789abcdef", Duration.ofSeconds(1));

        assertThat(a.state()).isEqualTo(ResidentStatus.State.UNSAFE);
        assertThat(a.detail()).contains("resident directory");
    }

    @Test
    void status_noResident_isNotRunning() {
        ResidentStatus.Answer a = ResidentStatus.query(tmp.resolve("none"), "0123456789abcdef", Duration.ofSeconds(1));

        assertThat(a.state()).isEqualTo(ResidentStatus.State.NOT_RUNNING);
    }
}
