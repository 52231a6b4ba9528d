package dev.agentwarden.managed;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.release.PolicyBundle;
import dev.agentwarden.release.ReleaseException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleScriptsTest {
    @TempDir
    Path dir;

    private static byte[] manifest(String script) {
        return ("schema_version: 1\nconcerns:\n  s: {script: '" + script + "', tools: [Bash]}\n"
                + "  b: {script: builtin:context-note, message: hi}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [s, b]\n").getBytes(StandardCharsets.UTF_8);
    }

    private Path script(String name, String perms) throws Exception {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        return WardenProcess.writeScript(f, "#!/bin/sh\nexit 1\n", perms);
    }

    @Test
    void relativeScripts_areRead_withTheirExecutableBit_builtinsAndAbsolutePathsAreNot() throws Exception {
        script("concerns/deny.sh", "rwxr-x---");
        Map<String, PolicyBundle.Script> read = BundleScripts.read(dir, manifest("./concerns/deny.sh"));
        assertThat(read).containsOnlyKeys("concerns/deny.sh");
        assertThat(new String(read.get("concerns/deny.sh").bytes(), StandardCharsets.UTF_8)).isEqualTo("#!/bin/sh\nexit 1\n");
        assertThat(read.get("concerns/deny.sh").executable()).isTrue();
        script("data.sh", "rw-r--r--");
        assertThat(BundleScripts.read(dir, manifest("data.sh")).get("data.sh").executable()).isFalse();
        assertThat(BundleScripts.read(dir, manifest("/bin/false"))).isEmpty();
    }

    @Test
    void aMissingScript_isRefusedAtSign() {
        assertThatThrownBy(() -> BundleScripts.read(dir, manifest("gone.sh")))
                .isInstanceOf(ReleaseException.class).hasFieldOrPropertyWithValue("code", "bundle_script_missing");
    }

    @Test
    void aPathLeadingOut_aSymlink_aSymlinkedDirectory_andANonRegularFile_areRefused() throws Exception {
        Path outside = Files.createTempFile("outside", ".sh");
        try {
            assertThatThrownBy(() -> BundleScripts.read(dir, manifest("../x.sh")))
                    .hasFieldOrPropertyWithValue("code", "bundle_policy_invalid").hasMessageContaining("leads out");
            Files.createSymbolicLink(dir.resolve("link.sh"), outside);
            assertThatThrownBy(() -> BundleScripts.read(dir, manifest("link.sh")))
                    .hasFieldOrPropertyWithValue("code", "bundle_script_refused").hasMessageContaining("symlink");
            Files.createSymbolicLink(dir.resolve("linkdir"), outside.getParent());
            assertThatThrownBy(() -> BundleScripts.read(dir, manifest("linkdir/" + outside.getFileName())))
                    .hasFieldOrPropertyWithValue("code", "bundle_script_refused").hasMessageContaining("symlink");
            Files.createDirectories(dir.resolve("adir.sh"));
            assertThatThrownBy(() -> BundleScripts.read(dir, manifest("adir.sh")))
                    .hasFieldOrPropertyWithValue("code", "bundle_script_refused").hasMessageContaining("not a regular file");
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void aScriptOverTheCap_isRefused() throws Exception {
        Files.write(dir.resolve("big.sh"), new byte[PolicyBundle.MAX_SCRIPT_BYTES + 1]);
        assertThatThrownBy(() -> BundleScripts.read(dir, manifest("big.sh")))
                .hasFieldOrPropertyWithValue("code", "bundle_script_too_large");
    }

    @Test
    void named_givesNormalizedBundlePaths_once() {
        byte[] two = ("schema_version: 1\nconcerns:\n  a: {script: ./x/a.sh}\n  b: {script: x/a.sh}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [a, b]\n").getBytes(StandardCharsets.UTF_8);
        assertThat(BundleScripts.named(two)).containsExactly("x/a.sh");
    }
}
