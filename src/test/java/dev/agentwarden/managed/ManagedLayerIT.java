package dev.agentwarden.managed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The managed layer where it really lives: each dispatch runs in a mount namespace of its own
 * ({@code unshare -m} as root, {@code unshare -Urm} otherwise, where the user's files appear as
 * root's) with an overlay on {@code /etc} that holds this test's {@code /etc/agent-warden}. The
 * machine's own {@code /etc} is never written. Whatever the manifest above it says, a managed deny holds.
 * Cases run side by side: each has its own namespace, home, cache and state directory.
 */
@Execution(ExecutionMode.CONCURRENT)
class ManagedLayerIT {
    private static final String MANAGED = """
            schema_version: 1
            concerns:
              no-rm-rf:
                script: builtin:deny-pattern
                posture: blocking
                tools: [Bash]
                patterns:
                  - match: 'rm\\s+-rf\\s+/'
                    reason: "managed: never rm -rf /"
            platforms:
              claude:
                pre_tool_use: [no-rm-rf]
            """;

    @TempDir
    Path tmp;

    /** The session role the next dispatch runs under ({@code WARDEN_SESSION_ROLE}), or none. */
    private String role;

    private Path etc;
    private Path project;

    @BeforeEach
    void layout() throws Exception {
        Assumptions.assumeTrue(ManagedLayerITSupport.namespacesWork(), "mount namespaces with overlayfs are not available to this user here");
        etc = Files.createDirectories(tmp.resolve("upper/agent-warden"));
        Files.createDirectories(tmp.resolve("work"));
        project = Files.createDirectories(tmp.resolve("project"));
        Files.createDirectories(tmp.resolve("home"));
        Files.setPosixFilePermissions(tmp.resolve("home"), PosixFilePermissions.fromString("rwx------"));
        // /etc/agent-warden as an administrator makes it: root's (inside the namespace), 0755
        Files.setPosixFilePermissions(etc, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void projectWithoutExtends_cannotAllowWhatTheManagedLayerDenies() throws Exception {
        managed(MANAGED);
        String out = dispatch(project("""
                schema_version: 1
                concerns:
                  nv: {script: builtin:block-no-verify, tools: [Bash]}
                platforms:
                  claude:
                    pre_tool_use: [nv]
                """), "rm -rf /");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("managed: never rm -rf /");
    }

    @Test
    void projectDroppingTheManagedConcern_isStillDenied() throws Exception {
        managed(MANAGED);
        String out = dispatch(project("""
                schema_version: 1
                extends: default
                platforms:
                  claude:
                    pre_tool_use: {drop: [no-rm-rf]}
                """), "rm -rf /");
        // drop applies to the default's chain only: naming a managed concern there is a lint error, and
        // a manifest with an error never disables the managed layer
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("managed: never rm -rf /")
                .contains("drop-not-in-chain").contains("the managed policy alone is in force");
    }

    @Test
    void projectRedefiningTheManagedConcernAsShadow_isIgnoredLoudly() throws Exception {
        managed(MANAGED);
        String out = dispatch(project("""
                schema_version: 1
                concerns:
                  no-rm-rf:
                    script: builtin:deny-pattern
                    posture: shadow
                    tools: [Bash]
                    patterns:
                      - match: 'never-matches-anything'
                        reason: "x"
                platforms:
                  claude:
                    pre_tool_use: [no-rm-rf]
                """), "rm -rf /");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("managed: never rm -rf /")
                .contains("concern 'no-rm-rf' of").contains("ignored: the managed policy defines it");
    }

    @Test
    void projectMovingTheNativeEventElsewhere_isStillDenied() throws Exception {
        managed(MANAGED);
        String out = dispatch(project("""
                schema_version: 1
                concerns:
                  hi: {script: builtin:context-note, message: hi}
                native_event_aliases:
                  claude: {PreToolUse: post_tool_use, Elsewhere: pre_tool_use}
                platforms:
                  claude:
                    post_tool_use: [hi]
                """), "rm -rf /");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("managed: never rm -rf /")
                .doesNotContain("manifest unusable");
    }

    @Test
    void projectManifestThatDoesNotCompile_leavesTheManagedLayerInForce() throws Exception {
        managed(MANAGED);
        String out = dispatch(project("schema_version: 1\nconcerns: [this is not a mapping\n"), "rm -rf /");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("the managed policy alone is in force");
    }

    @Test
    void managedRoleChain_keepsTheProjectsDefaultChainForThatRole() throws Exception {
        managed("""
                schema_version: 1
                concerns:
                  prompt-note: {script: builtin:context-note, message: "managed note"}
                  other-note: {script: builtin:context-note, message: "dropped for workers"}
                roles:
                  worker:
                    drop: [other-note]
                platforms:
                  claude:
                    user_prompt_submit: [prompt-note, other-note]
                """);
        Path manifest = project("""
                schema_version: 1
                concerns:
                  no-secrets:
                    script: builtin:deny-pattern
                    patterns:
                      - match: 'launch codes'
                        reason: "project: no launch codes"
                platforms:
                  claude:
                    user_prompt_submit: [no-secrets]
                """);
        Path payload = tmp.resolve("prompt.json");
        Files.writeString(payload, "{\"session_id\":\"s1\",\"cwd\":\"" + project
                + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"the launch codes please\"}");
        role = "worker";
        String out = inNamespace(List.of("dispatch", "--host", "claude", "--native-event", "UserPromptSubmit",
                "--manifest", manifest.toString(), "--project-dir", project.toString()), payload);
        assertThat(out).contains("project: no launch codes");
    }

    @Test
    void anAllowedCommand_isAllowed_withTheManagedLayerInForce() throws Exception {
        managed(MANAGED);
        String out = dispatch(project("""
                schema_version: 1
                extends: default
                """), "ls -la");
        assertThat(out).doesNotContain("\"permissionDecision\":\"deny\"").doesNotContain("managed policy refused");
    }

    @Test
    void managedFileWritableByGroup_isRefusedLoudly_andEventsAreRefused() throws Exception {
        managed(MANAGED);
        Files.setPosixFilePermissions(etc.resolve("manifest.yaml"), PosixFilePermissions.fromString("rw-rw-r--"));
        String out = dispatch(project("schema_version: 1\nextends: default\n"), "ls -la");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("managed policy refused")
                .contains("is writable by group or others");
    }

    @Test
    void managedFileOwnedByAnotherUser_isRefusedLoudly() throws Exception {
        Assumptions.assumeTrue(ManagedLayerITSupport.isRoot(), "changing a file's owner needs root");
        managed(MANAGED);
        ManagedLayerITSupport.run(List.of("chown", "1000", etc.resolve("manifest.yaml").toString()));
        String out = dispatch(project("schema_version: 1\nextends: default\n"), "ls -la");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("is owned by uid 1000, not root");
    }

    @Test
    void managedFailModeClosed_outranksTheEnvironment() throws Exception {
        Files.writeString(etc.resolve("settings.json"), "{\"fail_mode\": \"closed\"}");
        Path broken = project("schema_version: 1\nconcerns: [broken\n");
        assertThat(dispatch(broken, "ls -la")).contains("\"permissionDecision\":\"deny\"");
        Files.delete(etc.resolve("settings.json"));
        assertThat(dispatch(broken, "ls -la")).doesNotContain("\"permissionDecision\":\"deny\"");
    }

    @Test
    void settingsWithAnUnknownKey_areRefused_notHalfApplied() throws Exception {
        Files.writeString(etc.resolve("settings.json"), "{\"fail_mod\": \"open\"}");
        String out = dispatch(project("schema_version: 1\nextends: default\n"), "ls -la");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("unknown key 'fail_mod'");
    }

    @Test
    void manifestShow_andDoctor_sayTheManagedLayer() throws Exception {
        managed(MANAGED);
        Path m = project("schema_version: 1\nextends: default\n");
        String show = inNamespace(List.of("manifest", "show", "--host", "claude", "--event", "PreToolUse", "--manifest", m.toString()), null);
        assertThat(show).contains("managed: managed:/etc/agent-warden/manifest.yaml").contains(" 1. no-rm-rf")
                .contains("from: managed");
        String doctor = inNamespace(List.of("doctor", "--project-dir", project.toString()), null);
        assertThat(doctor).contains("managed policy").contains("in force: /etc/agent-warden/manifest.yaml");
    }

    private void managed(String yaml) throws IOException {
        Path f = etc.resolve("manifest.yaml");
        Files.writeString(f, yaml);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private Path project(String yaml) throws IOException {
        Path f = tmp.resolve("project-manifest-" + System.nanoTime() + ".yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private String dispatch(Path manifest, String command) throws Exception {
        Path payload = tmp.resolve("payload.json");
        Files.writeString(payload, "{\"session_id\":\"s1\",\"cwd\":\"" + project + "\",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"" + command + "\"}}");
        return inNamespace(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse", "--manifest",
                manifest.toString(), "--project-dir", project.toString()), payload);
    }

    /** {@code warden ARGS} in this test's mount namespace ({@link ManagedLayerITSupport#inNamespace}). */
    private String inNamespace(List<String> args, Path stdin) throws Exception {
        return ManagedLayerITSupport.inNamespace(tmp, role == null ? Map.of() : Map.of("WARDEN_SESSION_ROLE", role), args, stdin);
    }
}
