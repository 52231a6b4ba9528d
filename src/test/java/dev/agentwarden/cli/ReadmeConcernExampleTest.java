package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.TestTrust;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Writing a concern" example, taken from the README itself: its script, manifest and
 * test cases go into a project, which is trusted, and {@code warden test} must pass them all.
 */
class ReadmeConcernExampleTest {
    @TempDir
    Path tmp;

    /** The fenced blocks of the README section headed {@code heading}, in order. */
    static List<String> blocks(String heading) throws IOException {
        String readme = Files.readString(Path.of("docs/concerns.md"));
        int start = readme.indexOf("\n## " + heading + "\n");
        assertThat(start).as("docs/concerns.md has a section '" + heading + "'").isPositive();
        int end = readme.indexOf("\n## ", start + 4);
        // parts alternate: prose, block, prose, block, ...
        List<String> fenced = new ArrayList<>();
        String[] parts = readme.substring(start, end < 0 ? readme.length() : end).split("\n```");
        for (int i = 1; i < parts.length; i += 2) {
            fenced.add(parts[i]);
        }
        return fenced;
    }

    @Test
    void writingAConcern_example_passesItsOwnTestsThroughWardenTest() throws IOException {
        List<String> blocks = blocks("Writing a concern");
        assertThat(blocks).hasSize(3);
        assertThat(blocks.get(0)).startsWith("bash\n");
        assertThat(blocks.get(1)).startsWith("yaml\n");
        assertThat(blocks.get(2)).startsWith("yaml\n");
        Path project = Files.createDirectories(tmp.resolve("proj"));
        Path script = Files.createDirectories(project.resolve(".warden/concerns")).resolve("shell-care.sh");
        WardenProcess.writeScript(script, body(blocks.get(0)), "rwxr-xr-x");
        Files.writeString(project.resolve(".warden/manifest.yaml"), body(blocks.get(1)));
        Path tests = Files.createDirectories(project.resolve(".warden/tests")).resolve("shell-care.yaml");
        Files.writeString(tests, body(blocks.get(2)));
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        TestTrust.trust(project, env);

        CliRun r = CliRun.in(env, "test", "--project-dir", project.toString());

        assertThat(r.out()).as(r.err()).contains("manifest: " + project.resolve(".warden/manifest.yaml"))
                .contains("3 passed, 0 failed");
        assertThat(r.exit()).isZero();
    }

    private static String body(String block) {
        return block.substring(block.indexOf('\n') + 1) + "\n";
    }
}
