package dev.agentwarden.managed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.manifest.ManifestCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link UserLayer}: where it is, its owner rule, and its scripts anchored under its own directory. */
class UserLayerTest {
    @TempDir
    Path home;

    private Map<String, String> env() {
        return Map.of("HOME", home.toString(), "WARDEN_CACHE_DIR", home.resolve("cache").toString(),
                "XDG_CONFIG_HOME", home.resolve("elsewhere").toString());
    }

    private Path write(Path f, String yaml, String mode) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, yaml);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void noFile_isAbsent_andXdgConfigHomeIsNotHonoured() throws IOException {
        write(home.resolve("elsewhere/agent-warden/manifest.yaml"), "schema_version: 1\nextends: default\n", "rw-------");
        UserLayer.State s = UserLayer.load(env(), new ArrayList<>());
        assertThat(s.status()).isEqualTo(UserLayer.Status.ABSENT);
        assertThat(s.file()).isEqualTo(home.resolve(".config/agent-warden/manifest.yaml"));
    }

    @Test
    void privateFile_isLoaded_withScriptsAnchoredUnderItsDirectory() throws IOException {
        Path f = write(home.resolve(".config/agent-warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  mine: {script: concerns/check.sh}
                  note: {script: builtin:context-note, message: hi}
                platforms:
                  claude:
                    pre_tool_use: [mine, note]
                """, "rw-------");
        UserLayer.State s = UserLayer.load(env(), new ArrayList<>());
        assertThat(s.status()).isEqualTo(UserLayer.Status.LOADED);
        assertThat(s.manifest().source()).isEqualTo("user:" + f);
        assertThat(s.manifest().concerns().get("mine").script()).isEqualTo(f.getParent().resolve("concerns/check.sh").toString());
        assertThat(s.manifest().concerns().get("note").script()).isEqualTo("builtin:context-note");
    }

    @Test
    void fileOthersCanWrite_isRefused() throws IOException {
        write(home.resolve(".config/agent-warden/manifest.yaml"), "schema_version: 1\nextends: default\n", "rw-rw-rw-");
        UserLayer.State s = UserLayer.load(env(), new ArrayList<>());
        assertThat(s.refused()).isTrue();
        assertThat(s.problem()).startsWith("user policy refused: ").contains("writable by group or others");
    }

    @Test
    void fileThatDoesNotCompile_isRefused_namingItsLine() throws IOException {
        Path f = write(home.resolve(".config/agent-warden/manifest.yaml"),
                "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    teatime: []\n", "rw-------");
        UserLayer.State s = UserLayer.load(env(), new ArrayList<>());
        assertThat(s.refused()).isTrue();
        assertThat(s.problem()).contains(":5: error: platforms.claude.teatime").contains("warden manifest lint " + f);
    }

    @Test
    void scriptLeadingOutOfTheLayersDirectory_isRefused() throws Exception {
        var compiled = ManifestCompiler.compile("user:x", "schema_version: 1\nconcerns:\n  a: {script: ../../bin/x}\nplatforms: {}\n", "0").manifest();
        assertThatThrownBy(() -> LayerScripts.anchored(compiled, home.resolve(".config/agent-warden")))
                .hasMessageContaining("concern 'a' runs ../../bin/x, which leads out of");
    }

    @Test
    void projectConcernOfTheSameName_isIgnoredLoudly_andUserChainRunsFirst() throws Exception {
        write(home.resolve(".config/agent-warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  guard: {script: builtin:block-no-verify, tools: [Bash]}
                platforms:
                  claude:
                    pre_tool_use: [guard]
                """, "rw-------");
        var project = ManifestCompiler.compile("project.yaml", """
                schema_version: 1
                concerns:
                  guard: {script: builtin:block-no-verify, posture: shadow, tools: [Bash]}
                  own: {script: builtin:context-note, message: hi}
                platforms:
                  claude:
                    pre_tool_use: [own, guard]
                """, "1").manifest();
        List<String> notes = new ArrayList<>();
        var layered = UserLayer.load(env(), notes).over(project, notes);
        assertThat(layered.chains().get("claude").get("pre_tool_use").get("")).containsExactly("guard", "own");
        assertThat(layered.concerns().get("guard").posture().wire()).isEqualTo("blocking");
        assertThat(notes).anySatisfy(n -> assertThat(n).contains("concern 'guard' of project.yaml ignored: the user policy defines it"));
    }
}
