package dev.agentwarden.install.copilot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.HostTrustGate.Finding;
import dev.agentwarden.install.HostTrustGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Copilot skips repository hooks silently in an untrusted folder: the gate says so, and when it is trusted. */
class CopilotFolderTrustTest {
    @TempDir
    Path dir;

    private List<Finding> check(Path project, boolean user, Map<String, String> env) {
        return HostTrustGate.forHost("copilot").check(project.resolve(".github/hooks/warden.json"), user, project, env);
    }

    @Test
    void projectHooks_folderNotTrusted_isAProblemNamingTheFix() throws Exception {
        Path project = Files.createDirectories(dir.resolve("proj"));
        List<Finding> found = check(project, false, Map.of("HOME", dir.toString()));
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.text()).contains("skips").contains(project.toString());
            assertThat(f.fix()).contains("--trust-folder").contains("trustedFolders");
        });
    }

    @Test
    void projectHooks_parentInTrustedFolders_orPromptModeVariable_isFine() throws Exception {
        Path project = Files.createDirectories(dir.resolve("work/proj"));
        Path home = Files.createDirectories(dir.resolve("copilot-home"));
        Files.writeString(home.resolve("config.json"), "// User settings belong in settings.json.\n"
                + "// This file is managed automatically.\n{\"trustedFolders\": [\"" + dir.resolve("work") + "\"]}");
        assertThat(check(project, false, Map.of("COPILOT_HOME", home.toString()))).singleElement()
                .satisfies(f -> assertThat(f.problem()).isFalse());
        assertThat(check(project, false, Map.of("HOME", dir.toString(), "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")))
                .singleElement().satisfies(f -> assertThat(f.problem()).isFalse());
        assertThat(check(project, false, Map.of("HOME", dir.toString(), "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "1")))
                .as("only `true` counts, as in Copilot").singleElement().satisfies(f -> assertThat(f.problem()).isTrue());
    }

    @Test
    void configUnreadable_isAProblem_userHooksAlwaysLoad() throws Exception {
        Path home = Files.createDirectories(dir.resolve("copilot-home"));
        Files.writeString(home.resolve("config.json"), "{not json");
        assertThat(check(dir, false, Map.of("COPILOT_HOME", home.toString()))).singleElement()
                .satisfies(f -> assertThat(f.text()).contains("cannot read"));
        assertThat(check(dir, true, Map.of("COPILOT_HOME", home.toString()))).singleElement()
                .satisfies(f -> assertThat(f.problem()).isFalse());
    }
}
