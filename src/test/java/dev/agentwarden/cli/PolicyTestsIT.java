package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI runs the policy tests shipped for the default manifest ({@code examples/policy-tests/})
 * through the packaged jar, as a user would: {@code warden test examples/policy-tests}.
 */
class PolicyTestsIT {
    @TempDir
    Path tmp;

    @Test
    void shippedPolicyTests_passAgainstTheDefaultManifest_throughTheJar() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("proj"));
        Path examples = WardenProcess.home().resolve("examples/policy-tests");

        WardenProcess.Result r = WardenProcess.run(List.of(), List.of("test", examples.toString(), "--project-dir",
                project.toString()), Map.of("HOME", tmp.toString(), "XDG_STATE_HOME", tmp.resolve("state").toString(),
                "WARDEN_CACHE_DIR", tmp.resolve("cache").toString()), new byte[0], tmp);

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("manifest: builtin:default-manifest.yaml").contains(" passed, 0 failed")
                .doesNotContain("FAIL");
        assertThat(r.stdout().lines().filter(l -> l.startsWith("ok    "))).hasSizeGreaterThanOrEqualTo(9);
        assertThat(project.resolve(".warden")).as("no state written").doesNotExist();
    }
}
