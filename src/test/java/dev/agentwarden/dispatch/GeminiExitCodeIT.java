package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Gemini CLI reads every hook exit code but 0, 1 and 2 as a deny. Through the jar, every failure
 * path of a dispatch answers it with exit 0; through {@code bin/warden}, a JVM that exits with a
 * code of its own, or dies, becomes exit 1 (Gemini allows, showing stderr as a warning), or 2 under
 * {@code WARDEN_FAIL_MODE=closed}: never a deny by accident.
 */
/* Each case has a launcher home, HOME and cache of its own: the cases run on the parallel pool. */
@Execution(ExecutionMode.CONCURRENT)
class GeminiExitCodeIT {
    private static final String BEFORE_TOOL = "{\"session_id\":\"s1\",\"cwd\":\"/tmp\",\"hook_event_name\":\"BeforeTool\","
            + "\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"echo hi\"}}";

    private Path dir;
    private Path home;
    private Path exitSwitch;
    private Map<String, String> env;

    @BeforeEach
    void copyLauncherHome() throws IOException {
        dir = Files.createTempDirectory("warden-gemini-exit-it");
        home = WardenProcess.copyLauncherHome(dir);
        exitSwitch = dir.resolve("exit");
        // A java that, while the switch holds a code, ends each dispatch with it ("kill": dies by SIGKILL).
        Path wrapper = WardenProcess.writeScript(dir.resolve("java"), "#!/bin/sh\n"
                + "case \" $* \" in *' dispatch '*)\n"
                + "  if [ -f '" + exitSwitch + "' ]; then\n"
                + "    code=$(cat '" + exitSwitch + "')\n"
                + "    [ \"$code\" = kill ] && kill -KILL $$\n"
                + "    exit \"$code\"\n"
                + "  fi ;;\n"
                + "esac\n"
                + "exec '" + WardenProcess.java() + "' \"$@\"\n");
        Path project = Files.createDirectories(dir.resolve("project"));
        env = new LinkedHashMap<>();
        env.put("WARDEN_JAVA", wrapper.toString());
        env.put("WARDEN_RESIDENT", "off");
        env.put("WARDEN_NO_ARCHIVE", "1");
        env.put("WARDEN_CACHE_DIR", Files.createDirectories(dir.resolve("cache")).toString());
        env.put("GEMINI_PROJECT_DIR", project.toString());
        env.put("HOME", dir.toString());
    }

    @AfterEach
    void delete() throws IOException {
        GoldenCorpus.deleteTree(dir);
    }

    @Test
    void launcher_jvmExitsThree_geminiGetsOneNotADeny() throws Exception {
        Files.writeString(exitSwitch, "3");
        WardenProcess.Result r = launcher(Map.of(), "BeforeTool");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("warden: dispatch failed (exit 3); allowing");
    }

    @Test
    void launcher_jvmKilled_geminiGetsOneNotADeny() throws Exception {
        Files.writeString(exitSwitch, "kill");
        WardenProcess.Result r = launcher(Map.of(), "BeforeTool");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("warden: dispatch failed (exit 137); allowing");
    }

    @Test
    void launcher_jvmExitsThree_failModeClosed_geminiGetsTheBlockingTwo() throws Exception {
        Files.writeString(exitSwitch, "70");
        WardenProcess.Result r = launcher(Map.of("WARDEN_FAIL_MODE", "closed"), "BeforeTool");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("refusing (WARDEN_FAIL_MODE=closed)");
    }

    @Test
    void launcher_jvmExitsThree_otherHosts_keepTheirCode() throws Exception {
        Files.writeString(exitSwitch, "3");
        List<String> args = List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse");
        assertThat(WardenProcess.runProgram(home.resolve("bin/warden"), args, env,
                BEFORE_TOOL.getBytes(StandardCharsets.UTF_8), dir).exitCode()).isEqualTo(3);
    }

    @Test
    void launcher_noJava_geminiGetsZero() throws Exception {
        WardenProcess.Result r = launcher(Map.of("WARDEN_JAVA", dir.resolve("no-such-java").toString()), "BeforeTool");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).contains("no java found");
    }

    /** Through the launcher and through the jar: each way a dispatch can fail answers Gemini with exit 0. */
    @Test
    void jar_everyFailurePath_answersGeminiWithExitZero() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "schema_version: [unclosed\n");
        List<List<String>> failures = List.of(
                List.of("dispatch", "--host", "gemini", "--native-event"),
                List.of("dispatch", "--host", "gemini", "--native-event", "NoSuchEvent"),
                List.of("dispatch", "--host", "gemini", "--native-event", "BeforeTool", "--manifest", broken.toString()),
                List.of("dispatch", "--host", "gemini", "--native-event", "BeforeTool", "--event", "no_such_event"));
        for (Map<String, String> mode : List.of(Map.<String, String>of(), Map.of("WARDEN_FAIL_MODE", "closed"))) {
            Map<String, String> e = new LinkedHashMap<>(env);
            e.putAll(mode);
            e.remove("WARDEN_JAVA");
            for (List<String> args : failures) {
                for (String stdin : List.of(BEFORE_TOOL, "not json", "")) {
                    WardenProcess.Result viaJar = WardenProcess.run(List.of(), args, e,
                            stdin.getBytes(StandardCharsets.UTF_8), dir);
                    assertThat(viaJar.exitCode()).as("jar %s %s <<%s", mode, args, stdin).isZero();
                    WardenProcess.Result viaLauncher = WardenProcess.runProgram(home.resolve("bin/warden"), args, e,
                            stdin.getBytes(StandardCharsets.UTF_8), dir);
                    assertThat(viaLauncher.exitCode()).as("launcher %s %s <<%s", mode, args, stdin).isZero();
                }
            }
        }
        Map<String, String> closed = new LinkedHashMap<>(env);
        closed.put("WARDEN_FAIL_MODE", "closed");
        closed.remove("WARDEN_JAVA");
        WardenProcess.Result refused = WardenProcess.run(List.of(),
                List.of("dispatch", "--host", "gemini", "--native-event", "BeforeTool", "--manifest", broken.toString()),
                closed, BEFORE_TOOL.getBytes(StandardCharsets.UTF_8), dir);
        assertThat(refused.stdout()).as("closed mode refuses in Gemini's own channel, still exit 0")
                .startsWith("{\"decision\":\"deny\",\"reason\":\"[warden] Warden cannot evaluate policy");
    }

    private WardenProcess.Result launcher(Map<String, String> extra, String event) throws Exception {
        Map<String, String> e = new LinkedHashMap<>(env);
        e.putAll(extra);
        List<String> args = new ArrayList<>(List.of("dispatch", "--host", "gemini", "--native-event", event));
        return WardenProcess.runProgram(home.resolve("bin/warden"), args, e, BEFORE_TOOL.getBytes(StandardCharsets.UTF_8), dir);
    }
}
