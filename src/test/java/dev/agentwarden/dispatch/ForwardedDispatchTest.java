package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.testing.TestTrust;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dispatch run for a forwarded caller ({@link Caller#forwarded}), as the resident server runs a
 * launcher's event: relative paths resolve against the launcher's directory, not this JVM's, and
 * concern processes get exactly the launcher's environment, not this JVM's.
 */
class ForwardedDispatchTest {
    private static final MutableClock CLOCK = MutableClock.at("2026-05-04T10:00:00Z");
    private static final String PRE_TOOL_USE = "{\"session_id\":\"s-1\",\"hook_event_name\":\"PreToolUse\","
            + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}";
    private static final String ONLY_IN_CALLER = "from the launcher: a=b";

    @TempDir
    Path tmp;
    private Path project;
    private Map<String, String> callerEnv;

    @BeforeEach
    void createProject() throws IOException {
        project = Files.createDirectories(tmp.resolve("project"));
        callerEnv = new LinkedHashMap<>();
        callerEnv.put("PATH", System.getenv("PATH"));
        callerEnv.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        callerEnv.put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        callerEnv.put("ONLY_IN_CALLER", ONLY_IN_CALLER);
    }

    @Test
    void relativeManifest_resolvedAgainstCallersWorkingDir() throws IOException {
        Path launcherDir = Files.createDirectories(tmp.resolve("launcher"));
        Path deny = script(tmp.resolve("deny.sh"), "echo '{\"reason\": \"denied by policy/m.yaml\"}'\nexit 1");
        writeManifest(launcherDir.resolve("policy/m.yaml"), "deny", "'" + deny + "'");
        assertThat(Path.of("policy/m.yaml")).as("precondition: absent from this JVM's working dir").doesNotExist();
        String payload = withCwd(project);

        Outcome relative = run(Caller.forwarded(callerEnv, launcherDir), payload, "--manifest", "policy/m.yaml");
        Outcome absolute = run(Caller.forwarded(callerEnv, launcherDir), payload,
                "--manifest", launcherDir.resolve("policy/m.yaml").toString());
        Outcome fromJvmDir = run(Caller.thisProcess(callerEnv), payload, "--manifest", "policy/m.yaml");

        assertThat(relative.stdout()).contains("\"permissionDecision\":\"deny\"").contains("denied by policy/m.yaml");
        assertThat(relative).isEqualTo(absolute);
        assertThat(fromJvmDir.stdout()).as("read against this JVM's directory the file is missing").isEmpty();
        assertThat(fromJvmDir.stderr()).startsWith("warden: manifest unusable: ");
    }

    @Test
    void nothingNamesARoot_rootIsCallersWorkingDir() throws IOException {
        script(project.resolve("capture.sh"), "cat > envelope.json");
        writeManifest(project.resolve(".warden/manifest.yaml"), "capture", "capture.sh");

        Outcome o = run(Caller.forwarded(callerEnv, project), PRE_TOOL_USE);

        assertThat(o).isEqualTo(new Outcome(0, "", ""));
        Map<String, Object> envelope = Json.parseObject(Files.readString(project.resolve("envelope.json")));
        assertThat(envelope).containsEntry("workspace_root", project.toString());
    }

    @Test
    void relativeProjectDir_resolvedAgainstCallersWorkingDir() throws IOException {
        Path launcherDir = Files.createDirectories(tmp.resolve("launcher"));
        script(project.resolve("capture.sh"), "cat > envelope.json");
        writeManifest(project.resolve(".warden/manifest.yaml"), "capture", "capture.sh");

        run(Caller.forwarded(callerEnv, launcherDir), PRE_TOOL_USE, "--project-dir", "../project");

        Map<String, Object> envelope = Json.parseObject(Files.readString(project.resolve("envelope.json")));
        assertThat(envelope).containsEntry("workspace_root", launcherDir.resolve("../project").toString());
    }

    @Test
    void processConcern_seesExactlyTheCallersEnvironment() throws IOException {
        String jvmOnly = jvmOnlyVariable();
        script(project.resolve("envdump.sh"), EnvDump.SCRIPT);
        writeManifest(project.resolve(".warden/manifest.yaml"), "envdump", "envdump.sh");

        run(Caller.forwarded(callerEnv, project), PRE_TOOL_USE);

        Map<String, String> expected = new LinkedHashMap<>(callerEnv);
        expected.put("WARDEN_CONCERN", "envdump");
        expected.put("WARDEN_EVENT", "pre_tool_use");
        Map<String, String> seen = EnvDump.read(project);
        assertThat(seen).containsEntry("ONLY_IN_CALLER", ONLY_IN_CALLER).doesNotContainKey(jvmOnly);
        assertThat(seen).isEqualTo(expected);
    }

    /**
     * A one-shot dispatch's concern inherits the launcher's variables as bytes; a forwarded one
     * must get the same text. Fails when this JVM's default charset is not UTF-8 (JDK 17 under
     * {@code LANG=C}): ProcessBuilder then encodes the value with it.
     */
    @Test
    void processConcern_nonAsciiCallerValue_reachesChildUnchanged() throws IOException {
        callerEnv.put("GREETING", "grüß dich ✓ 日本");
        script(project.resolve("envdump.sh"), EnvDump.SCRIPT);
        writeManifest(project.resolve(".warden/manifest.yaml"), "envdump", "envdump.sh");

        run(Caller.forwarded(callerEnv, project), PRE_TOOL_USE);

        assertThat(EnvDump.read(project)).containsEntry("GREETING", "grüß dich ✓ 日本");
    }

    @Test
    void processConcern_thisProcess_inheritsThisJvmsEnvironment() throws IOException {
        String jvmOnly = jvmOnlyVariable();
        script(project.resolve("envdump.sh"), EnvDump.SCRIPT);
        writeManifest(project.resolve(".warden/manifest.yaml"), "envdump", "envdump.sh");

        run(Caller.thisProcess(callerEnv), withCwd(project));

        assertThat(EnvDump.read(project)).containsEntry(jvmOnly, System.getenv(jvmOnly)).doesNotContainKey("ONLY_IN_CALLER")
                .containsEntry("WARDEN_CONCERN", "envdump").containsEntry("WARDEN_EVENT", "pre_tool_use");
    }

    /** A variable of this JVM's environment that the caller's lacks: HOME when set. */
    private String jvmOnlyVariable() {
        String name = System.getenv("HOME") != null ? "HOME"
                : System.getenv().keySet().stream().filter(k -> !callerEnv.containsKey(k) && !k.equals("PWD"))
                        .findFirst().orElse(null);
        assertThat(name).as("precondition: this JVM has a variable the caller lacks").isNotNull();
        assertThat(callerEnv).doesNotContainKey(name);
        return name;
    }

    private static String withCwd(Path cwd) {
        Map<String, Object> payload = Json.parseObject(PRE_TOOL_USE);
        payload.put("cwd", cwd.toString());
        return Json.write(payload);
    }

    /** A manifest binding one process concern to Claude's PreToolUse; a project manifest is trusted as written. */
    private void writeManifest(Path file, String concern, String script) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                schema_version: 1
                concerns:
                  %s:
                    script: %s
                    posture: blocking
                platforms:
                  claude:
                    pre_tool_use: [%s]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """.formatted(concern, script, concern));
        if (file.endsWith(".warden/manifest.yaml")) {
            TestTrust.trust(file.getParent().getParent(), callerEnv);
        }
    }

    private static Path script(Path file, String body) throws IOException {
        return WardenProcess.writeScript(file, "#!/bin/sh\n" + body + "\n", "rwxr-xr-x");
    }

    /** What the host would see. */
    private record Outcome(int exitCode, String stdout, String stderr) {
    }

    private static Outcome run(Caller caller, String payload, String... extraArgs) {
        String[] argv = new String[3 + extraArgs.length];
        argv[0] = "dispatch";
        argv[1] = "--host";
        argv[2] = "claude";
        System.arraycopy(extraArgs, 0, argv, 3, extraArgs.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(argv, new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                caller, CLOCK);
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
