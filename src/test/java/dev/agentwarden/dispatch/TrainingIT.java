package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The archive-training workload ({@code Main __train}) as bin/warden runs it: in whatever directory the user is. */
class TrainingIT {
    @TempDir
    Path tmp;

    @Test
    void train_inAProject_recordsNoDecisionThere() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));

        WardenProcess.Result r = WardenProcess.run(List.of("-Djava.io.tmpdir=" + tmp), List.of("__train"),
                Map.of("HOME", tmp.resolve("home").toString()), new byte[0], project);

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // its not-JSON event has no cwd: it once recorded 40 payload_not_json decisions into the user's project
        assertThat(project.resolve(".warden")).doesNotExist();
    }

    /**
     * {@code __train --commands} (the static archive's workload) also runs the bulk commands, so their
     * classes are recorded, in a scratch project it removes; plain {@code __train} records dispatch's alone.
     */
    @Test
    void trainCommands_recordsTheBulkCommandsClasses_andLeavesNothingBehind() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path scratch = Files.createDirectories(tmp.resolve("scratch"));
        Path home = tmp.resolve("home");
        Path withCommands = tmp.resolve("commands.classlist");
        Path dispatchOnly = tmp.resolve("dispatch.classlist");

        WardenProcess.Result r = WardenProcess.run(List.of("-Djava.io.tmpdir=" + scratch,
                "-XX:DumpLoadedClassList=" + withCommands), List.of("__train", "--commands"),
                Map.of("HOME", home.toString(), "XDG_STATE_HOME", home.resolve("state").toString(),
                        "WARDEN_CACHE_DIR", home.resolve("cache").toString()), new byte[0], project);
        WardenProcess.Result plain = WardenProcess.run(List.of("-Djava.io.tmpdir=" + scratch,
                "-XX:DumpLoadedClassList=" + dispatchOnly), List.of("__train"),
                Map.of("HOME", home.toString()), new byte[0], project);

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(plain.exitCode()).as(plain.stderr()).isZero();
        assertThat(Files.readString(withCommands)).contains("dev/agentwarden/ledger/LedgerStats",
                "dev/agentwarden/guard/GuardDerivation", "dev/agentwarden/json/FieldScanner", "picocli/CommandLine");
        assertThat(Files.readString(dispatchOnly)).doesNotContain("picocli/CommandLine", "dev/agentwarden/ledger/LedgerStats");
        assertThat(project.resolve(".warden")).doesNotExist();
        try (var left = Files.list(scratch)) {
            assertThat(left.toList()).as("scratch projects and caches are removed").isEmpty();
        }
    }
}
