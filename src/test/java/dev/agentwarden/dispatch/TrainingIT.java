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
}
