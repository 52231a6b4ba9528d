package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.io.HookProjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 28 items 1 and 2: an HTTP hook event's environment comes only from its bound project and its payload. */
class HookCallerTest {
    @TempDir
    Path tmp;
    private Path dir;
    private Path project;
    private String id;

    @BeforeEach
    void registered() throws Exception {
        dir = Files.createDirectory(tmp.resolve("resident"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        project = Files.createDirectories(tmp.resolve("project/sub")).getParent().toRealPath();
        id = HookProjects.add(dir, project);
    }

    @Test
    void residentsSessionSettings_neverReachTheEvent_onlyTheUserAndTheBoundProject() {
        Map<String, String> resident = Map.of("HOME", "/home/u", "PATH", "/usr/bin", "WARDEN_CACHE_DIR", "/c",
                "CLAUDE_PROJECT_DIR", "/elsewhere", "WARDEN_CAPTURE_DIR", "/captures", "WARDEN_FAIL_MODE", "closed",
                "WARDEN_SESSION_ROLE", "worker", "WARDEN_DECISION_LOG", "off", "ANTHROPIC_API_KEY", "sk-secret");

        HookCaller.Bound bound = HookCaller.bind(dir, id, project.resolve("sub").toString(), resident);

        assertThat(bound.refusal()).isNull();
        assertThat(bound.root()).isEqualTo(project);
        assertThat(bound.caller().env()).isEqualTo(Map.of("HOME", "/home/u", "PATH", "/usr/bin", "WARDEN_CACHE_DIR", "/c",
                "WARDEN_PROJECT_DIR", project.toString()));
        assertThat(bound.caller().childEnv()).isEqualTo(bound.caller().env());
        assertThat(bound.caller().workingDir()).isEqualTo(project.resolve("sub"));
    }

    @Test
    void cwdOutsideTheProject_evenThroughALinkInside_isRefused() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("other"));
        Path link = Files.createSymbolicLink(project.resolve("escape"), other);

        assertThat(HookCaller.bind(dir, id, other.toString(), Map.of()).refusal()).contains("outside");
        assertThat(HookCaller.bind(dir, id, link.toString(), Map.of()).refusal()).contains("outside");
        assertThat(HookCaller.bind(dir, id, null, Map.of()).refusal()).contains("no cwd");
        assertThat(HookCaller.bind(dir, id, "relative", Map.of()).refusal()).contains("not an existing absolute directory");
    }

    @Test
    void unknownId_orRegistryReadableByOthers_isRefused() throws Exception {
        assertThat(HookCaller.bind(dir, "0".repeat(32), project.toString(), Map.of()).refusal())
                .contains("did not bind");
        Files.setPosixFilePermissions(dir.resolve(HookProjects.NAME), PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(HookCaller.bind(dir, id, project.toString(), Map.of()).refusal()).contains("did not bind");
    }

    @Test
    void registryLineWhoseIdIsNotItsPathsDigest_isNotBelieved() throws Exception {
        String forged = "f".repeat(32);
        Files.writeString(dir.resolve(HookProjects.NAME), forged + " " + project + "\n");
        Files.setPosixFilePermissions(dir.resolve(HookProjects.NAME), PosixFilePermissions.fromString("rw-------"));

        assertThat(HookProjects.root(dir, forged)).isNull();
    }
}
