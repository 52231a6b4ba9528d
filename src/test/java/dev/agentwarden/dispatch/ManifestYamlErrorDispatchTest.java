package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manifest that is not YAML, met at dispatch: the detail is said once, in plain words. */
class ManifestYamlErrorDispatchTest {
    @TempDir
    Path dir;

    /** Was "13: error: : not valid YAML: expected <block end> …" twice on one stderr line. */
    @Test
    void dispatch_badIndentation_detailOnceWithLineColumnAndKeyPath() throws Exception {
        Path manifest = Files.writeString(dir.resolve("m.yaml"), """
                schema_version: 1
                concerns:
                  note:
                    script: builtin:context-note
                   message: hi
                platforms: {}
                """);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        DispatchCall.run(new String[] {"dispatch", "--host", "claude", "--native-event", "Stop", "--manifest", manifest.toString()},
                new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of("WARDEN_CACHE_DIR", dir.resolve("cache").toString()), GoldenCorpus.CLOCK);

        String stderr = err.toString(StandardCharsets.UTF_8);
        String detail = manifest + ":5: error: concerns.note.message: line 5, column 4: this line is indented differently";
        assertThat(stderr).contains(detail).doesNotContain("<block").doesNotContain(": : ");
        assertThat(stderr.indexOf("line 5, column 4")).as("said once").isEqualTo(stderr.lastIndexOf("line 5, column 4"));
    }
}
