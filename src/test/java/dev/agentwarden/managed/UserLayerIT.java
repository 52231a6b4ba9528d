package dev.agentwarden.managed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The user layer ({@code ~/.config/agent-warden/manifest.yaml}) and the managed settings beyond the
 * fail mode, in the mount namespace of {@link ManagedLayerIT} ({@link ManagedLayerITSupport}): a
 * user's own deny holds on a project that drops, redefines or leaves it out; a user file others can
 * write is refused loudly; {@code min_version}, {@code retention} and managed scripts do what they say.
 * Cases run side by side: each has its own namespace, home, cache and state directory.
 */
@Execution(ExecutionMode.CONCURRENT)
class UserLayerIT {
    private static final String USER = """
            schema_version: 1
            concerns:
              no-launch-codes:
                script: builtin:deny-pattern
                posture: blocking
                tools: [Bash]
                patterns:
                  - match: 'launch-codes'
                    reason: "user: never the launch codes"
            platforms:
              claude:
                pre_tool_use: [no-launch-codes]
            """;

    @TempDir
    Path tmp;

    private Path etc;
    private Path config;
    private Path project;

    @BeforeEach
    void layout() throws Exception {
        Assumptions.assumeTrue(ManagedLayerITSupport.namespacesWork(), "mount namespaces with overlayfs are not available to this user here");
        etc = Files.createDirectories(tmp.resolve("upper/agent-warden"));
        Files.setPosixFilePermissions(etc, PosixFilePermissions.fromString("rwxr-xr-x"));
        project = Files.createDirectories(tmp.resolve("project"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        config = Files.createDirectories(home.resolve(".config/agent-warden"));
    }

    @Test
    void userConcern_holdsAgainstAProjectThatDropsIt() throws Exception {
        user(USER);
        String out = dispatch(project("""
                schema_version: 1
                extends: default
                platforms:
                  claude:
                    pre_tool_use: {drop: [no-launch-codes]}
                """), "cat launch-codes");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("user: never the launch codes")
                .contains("the user policy alone is in force");
    }

    @Test
    void userConcern_holdsAgainstAProjectRedefiningItAsShadow_andAProjectWithoutExtends() throws Exception {
        user(USER);
        String out = dispatch(project("""
                schema_version: 1
                concerns:
                  no-launch-codes:
                    script: builtin:deny-pattern
                    posture: shadow
                    tools: [Bash]
                    patterns:
                      - match: 'never-matches-anything'
                        reason: "x"
                platforms:
                  claude:
                    pre_tool_use: [no-launch-codes]
                """), "cat launch-codes");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("user: never the launch codes")
                .contains("ignored: the user policy defines it");
        String line = lastDecision();
        assertThat(line).contains("\"layer\":\"user\"").contains("\"user\":{\"source\":\"user:");

        String plain = dispatch(project("""
                schema_version: 1
                concerns:
                  nv: {script: builtin:block-no-verify, tools: [Bash]}
                platforms:
                  claude:
                    pre_tool_use: [nv]
                """), "cat launch-codes");
        assertThat(plain).contains("\"permissionDecision\":\"deny\"").contains("user: never the launch codes");
    }

    @Test
    void managedConcern_runsBeforeTheUsers_andTheUserCannotRedefineIt() throws Exception {
        managed("""
                schema_version: 1
                concerns:
                  no-rm-rf:
                    script: builtin:deny-pattern
                    tools: [Bash]
                    patterns:
                      - match: 'rm -rf'
                        reason: "managed: never rm -rf"
                platforms:
                  claude:
                    pre_tool_use: [no-rm-rf]
                """);
        user("""
                schema_version: 1
                concerns:
                  no-launch-codes:
                    script: builtin:deny-pattern
                    tools: [Bash]
                    patterns:
                      - match: 'launch-codes'
                        reason: "user: never the launch codes"
                  no-rm-rf:
                    script: builtin:context-note
                    message: "the user would rather allow it"
                platforms:
                  claude:
                    pre_tool_use: [no-launch-codes, no-rm-rf]
                """);
        Path m = project("schema_version: 1\nextends: default\n");
        assertThat(dispatch(m, "rm -rf /tmp/x launch-codes")).contains("\"permissionDecision\":\"deny\"")
                .contains("managed: never rm -rf").contains("ignored: the managed policy defines it");
        String show = ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("manifest", "show", "--host", "claude",
                "--event", "PreToolUse", "--manifest", m.toString()), null);
        assertThat(show).contains("user: user:").containsSubsequence(" 1. no-rm-rf", "from: managed",
                "2. no-launch-codes", "from: user");
    }

    @Test
    void userFileWritableByOthers_isRefusedLoudly_andTheFailModeDecides() throws Exception {
        user(USER);
        Files.setPosixFilePermissions(config.resolve("manifest.yaml"), PosixFilePermissions.fromString("rw-rw-rw-"));
        Path m = project("schema_version: 1\nextends: default\n");
        String open = dispatch(m, "cat launch-codes");
        assertThat(open).doesNotContain("\"permissionDecision\":\"deny\"").contains("user policy refused")
                .contains("is writable by group or others").contains("failing open");
        assertThat(lastDecision()).contains("\"user\":{\"source\":").contains("\"refused\":\"user policy refused");

        Files.writeString(etc.resolve("settings.json"), "{\"fail_mode\": \"closed\"}");
        String closed = dispatch(m, "ls");
        assertThat(closed).contains("\"permissionDecision\":\"deny\"").contains("user policy refused");
        String doctor = ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("doctor", "--project-dir", project.toString()), null);
        assertThat(doctor).contains("user policy").contains("is writable by group or others");
    }

    @Test
    void userFileWritableByAnotherGroup_isRefused() throws Exception {
        Assumptions.assumeTrue(ManagedLayerITSupport.isRoot(), "giving a file to another group needs root");
        user(USER);
        Path f = config.resolve("manifest.yaml");
        ManagedLayerITSupport.run(List.of("chgrp", "100", f.toString()));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-r--"));
        assertThat(dispatch(project("schema_version: 1\nextends: default\n"), "cat launch-codes"))
                .contains("user policy refused").contains("is writable by group or others");
    }

    @Test
    void minVersion_newerThanThisWarden_refusesEveryEvent() throws Exception {
        Files.writeString(etc.resolve("settings.json"), "{\"min_version\": \"999.0\"}");
        String out = dispatch(project("schema_version: 1\nextends: default\n"), "ls");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("requires Warden 999.0 or newer")
                .contains("upgrade Warden");
        Files.writeString(etc.resolve("settings.json"), "{\"min_version\": \"0.1\"}");
        assertThat(dispatch(project("schema_version: 1\nextends: default\n"), "ls"))
                .doesNotContain("\"permissionDecision\":\"deny\"");
    }

    @Test
    void retention_removesOldSegments_whenANewOneIsCreated_andOnPrune() throws Exception {
        Path decisions = Files.createDirectories(project.resolve(".warden/state/decisions"));
        Files.writeString(decisions.resolve("2020-01.jsonl"), "{}\n");
        Files.writeString(etc.resolve("settings.json"), "{\"retention\": 30}");
        dispatch(project("schema_version: 1\nextends: default\n"), "ls");
        assertThat(decisions.resolve("2020-01.jsonl")).doesNotExist();
        assertThat(segments(decisions)).hasSize(1);

        Files.writeString(decisions.resolve("2019-05.jsonl"), "{}\n");
        String pruned = ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("log", "prune", "--project-dir",
                project.toString()), null);
        assertThat(pruned).contains("removed 2019-05");
        assertThat(segments(decisions)).hasSize(1);
    }

    @Test
    void managedScript_runsFromEtc_evenWithProjectScriptsOff() throws Exception {
        Path script = Files.createDirectories(etc.resolve("concerns")).resolve("deny.sh");
        Files.writeString(script, "#!/bin/sh\necho 'managed script: no' >&2\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(etc.resolve("concerns"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(etc.resolve("settings.json"), "{\"project_scripts\": false}");
        managed("""
                schema_version: 1
                concerns:
                  admin-check: {script: concerns/deny.sh, tools: [Bash], fail_closed: true}
                platforms:
                  claude:
                    pre_tool_use: [admin-check]
                """);
        Path m = project("schema_version: 1\nextends: default\n");
        assertThat(dispatch(m, "ls")).contains("\"permissionDecision\":\"deny\"").contains("managed script: no");

        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(dispatch(m, "ls")).contains("\"permissionDecision\":\"deny\"")
                .contains("managed script refused").contains("is writable by group or others");
    }

    @Test
    void userScript_runsFromItsOwnDirectory_withoutTrust() throws Exception {
        Path script = Files.createDirectories(config.resolve("concerns")).resolve("warn.sh");
        Files.writeString(script, "#!/bin/sh\necho 'user script ran' >&2\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        user("""
                schema_version: 1
                concerns:
                  mine: {script: concerns/warn.sh, tools: [Bash]}
                platforms:
                  claude:
                    pre_tool_use: [mine]
                """);
        // the project's own manifest, untrusted: the default stands in, and the user's script still runs
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), "schema_version: 1\nextends: default\n");
        String out = dispatchInProject("ls");
        assertThat(out).contains("\"permissionDecision\":\"deny\"").contains("user script ran")
                .contains("is not trusted");
    }

    @Test
    void projectManifestSignedByAManagedSigner_runsWithoutTrust_andATamperedOneFallsBackLoudly() throws Exception {
        Path keys = tmp.resolve("keys");
        assertThat(ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("release", "keygen", "--out", keys.toString(),
                "--name", "team"), null)).doesNotContain("rror");
        Files.writeString(etc.resolve("settings.json"), dev.agentwarden.json.Json.write(
                Map.of("signers", List.of(Files.readString(keys.resolve("team.pub.pem"))))));
        Path hooks = Files.createDirectories(project.resolve("hooks"));
        Files.writeString(hooks.resolve("team.sh"), "#!/bin/sh\necho 'team script says no' >&2\nexit 1\n");
        Files.setPosixFilePermissions(hooks.resolve("team.sh"), PosixFilePermissions.fromString("rwx------"));
        Path manifest = Files.createDirectories(project.resolve(".warden")).resolve("manifest.yaml");
        Files.writeString(manifest, """
                schema_version: 1
                concerns:
                  team: {script: hooks/team.sh, tools: [Bash]}
                platforms:
                  claude:
                    pre_tool_use: [team]
                """);
        assertThat(ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("manifest", "sign", "--key",
                keys.resolve("team.key.pem").toString(), "--project-dir", project.toString()), null)).contains("signed ");

        String signed = dispatchInProject("ls");
        assertThat(signed).contains("\"permissionDecision\":\"deny\"").contains("team script says no")
                .doesNotContain("not trusted");

        Path sig = project.resolve(".warden/manifest.yaml.sig");
        String good = Files.readString(sig);
        int at = good.indexOf("\"sig\":\"") + 7;
        Files.writeString(sig, good.substring(0, at) + (good.charAt(at) == 'A' ? 'B' : 'A') + good.substring(at + 1));
        String tampered = dispatchInProject("ls");
        assertThat(tampered).doesNotContain("team script says no").contains("signature refused")
                .contains("no signature by a managed signer verifies").contains("is not trusted");

        Files.writeString(sig, good);
        Files.writeString(manifest, Files.readString(manifest) + "# changed after signing\n");
        assertThat(dispatchInProject("ls")).doesNotContain("team script says no").contains("signed for other manifest bytes")
                .contains("is not trusted");
    }

    @Test
    void managedTelemetry_isTheCollectorExportUses_whenTheEnvironmentNamesNone() throws Exception {
        dispatch(project("schema_version: 1\nextends: default\n"), "ls");
        List<String> export = List.of("export", "--project-dir", project.toString(), "--timeout", "2");
        assertThat(ManagedLayerITSupport.inNamespace(tmp, Map.of(), export, null)).contains("no collector");
        Files.writeString(etc.resolve("settings.json"), "{\"telemetry\": {\"endpoint\": \"http://127.0.0.1:9\"}}");
        String managed = ManagedLayerITSupport.inNamespace(tmp, Map.of(), export, null);
        assertThat(managed).doesNotContain("no collector").contains("127.0.0.1:9");
        assertThat(ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("doctor", "--project-dir", project.toString()), null))
                .contains("telemetry http://127.0.0.1:9").contains("signers 0");
        String own = ManagedLayerITSupport.inNamespace(tmp, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:7"), export, null);
        assertThat(own).contains("127.0.0.1:7").doesNotContain("127.0.0.1:9");
    }

    private static List<Path> segments(Path decisions) throws IOException {
        try (Stream<Path> s = Files.list(decisions)) {
            return s.filter(p -> p.toString().endsWith(".jsonl")).toList();
        }
    }

    private String lastDecision() throws IOException {
        Path decisions = project.resolve(".warden/state/decisions");
        List<Path> files = segments(decisions);
        assertThat(files).isNotEmpty();
        List<String> lines = Files.readAllLines(files.get(files.size() - 1));
        return lines.get(lines.size() - 1);
    }

    private void user(String yaml) throws IOException {
        Path f = config.resolve("manifest.yaml");
        Files.writeString(f, yaml);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
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
        return ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("dispatch", "--host", "claude", "--native-event",
                "PreToolUse", "--manifest", manifest.toString(), "--project-dir", project.toString()), payload(command));
    }

    private String dispatchInProject(String command) throws Exception {
        return ManagedLayerITSupport.inNamespace(tmp, Map.of(), List.of("dispatch", "--host", "claude", "--native-event",
                "PreToolUse", "--project-dir", project.toString()), payload(command));
    }

    private Path payload(String command) throws IOException {
        Path payload = tmp.resolve("payload.json");
        Files.writeString(payload, "{\"session_id\":\"s1\",\"cwd\":\"" + project + "\",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"" + command + "\"}}");
        return payload;
    }
}
