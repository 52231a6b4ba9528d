package dev.agentwarden.install.opencode;

import dev.agentwarden.testing.WardenProcess;
import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.opencode.OpenCodeSetup;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge plugin as written by install, run by node against a fake launcher
 * ({@code bridge-harness.mjs}): what it throws, what it injects, which callbacks start a process,
 * and how a Warden failure follows the fail mode. Skipped, saying so, where node is not installed.
 */
class OpenCodeBridgeNodeTest {
    private static final String FAKE_LAUNCHER = String.join("\n",
            "#!/bin/sh",
            "# fake bin/warden: records argv and stdin, answers as the harness set up",
            "d=\"$(dirname \"$0\")\"",
            "n=$(ls \"$d/calls\" | wc -l)",
            "printf '%s\\n' \"$*\" > \"$d/calls/$n.argv\"",
            "cat > \"$d/calls/$n.json\"",
            "[ -e \"$d/sleep\" ] && exec sleep 60",
            "cat \"$d/answer\"",
            "[ -s \"$d/stderr\" ] && cat \"$d/stderr\" >&2",
            "exit \"$(cat \"$d/exit\")\"",
            "");

    @TempDir
    static Path dir;

    private static Map<String, Object> results;
    private static List<Map<String, Object>> calls;
    private static String stderr;

    @BeforeAll
    static void runHarness() throws Exception {
        Path node = onPath("node");
        Assumptions.assumeTrue(node != null, "node is not on PATH: the bridge's unit tests need it");
        Path launcher = dir.resolve("bin/warden");
        Files.createDirectories(launcher.getParent().resolve("calls"));
        WardenProcess.writeScript(launcher, FAKE_LAUNCHER, "rwx------");
        List<Binding> bound = List.of(new Binding("tool.execute.before", "*"), new Binding("tool.execute.after", "*"),
                new Binding("chat.message", null), new Binding("event.subagent.created", null),
                new Binding("event.subagent.idle", null));
        var plugin = OpenCodeSetup.OPENCODE.installer(Host.Scope.PROJECT);
        Files.write(dir.resolve("bridge.mjs"), plugin.install(new byte[0], HookLauncher.plain(launcher.toString()), bound));
        Files.write(dir.resolve("missing.mjs"), plugin.install(new byte[0], HookLauncher.plain(dir.resolve("nowhere/bin/warden").toString()), bound));
        Path harness = dir.resolve("harness.mjs");
        try (InputStream in = OpenCodeBridgeNodeTest.class.getResourceAsStream("bridge-harness.mjs")) {
            Files.write(harness, in.readAllBytes());
        }
        ProcessBuilder pb = new ProcessBuilder(node.toString(), harness.toString(), dir.resolve("bridge.mjs").toString(),
                dir.resolve("missing.mjs").toString(), launcher.getParent().toString());
        pb.environment().put("WARDEN_BRIDGE_TIMEOUT_MS", "500");
        pb.environment().remove("WARDEN_FAIL_MODE");
        pb.redirectError(dir.resolve("stderr.txt").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("harness finished").isTrue();
        stderr = Files.readString(dir.resolve("stderr.txt"));
        assertThat(p.exitValue()).as("harness exit; stderr: " + stderr).isZero();
        results = Json.parseObject(new String(out, StandardCharsets.UTF_8));
        calls = new ArrayList<>();
        Path callDir = launcher.getParent().resolve("calls");
        try (Stream<Path> files = Files.list(callDir)) {
            List<Path> sorted = new ArrayList<>(files.filter(f -> f.toString().endsWith(".json")).toList());
            sorted.sort((a, b) -> Integer.compare(number(a), number(b)));
            for (Path f : sorted) {
                Map<String, Object> call = Json.parseObject(Files.readString(f));
                call.put("_argv", Files.readString(f.resolveSibling(number(f) + ".argv")).strip());
                calls.add(call);
            }
        }
    }

    @Test
    void deny_isThrownWithWardensReason() {
        assertThat(result("deny")).containsEntry("threw", "[warden] DENY-1");
        assertThat(calls.get(0)).containsEntry("hook", "tool.execute.before").containsKey("cwd")
                .containsEntry("_argv", "dispatch --host opencode --native-event tool.execute.before");
    }

    @Test
    void halt_isThrown_andAbortsTheSession() {
        assertThat(result("halt")).containsEntry("threw", "[warden] HALT-1").containsEntry("aborted", List.of("ses_top"));
    }

    @Test
    void noOpinion_letsTheToolRun() {
        assertThat(result("noOpinion")).containsEntry("threw", null);
    }

    @Test
    void context_afterTheTool_isAppendedToItsOutput() {
        assertThat(result("afterContext")).containsEntry("threw", null)
                .containsEntry("output", "tool said hi\n\n[warden] CTX-1");
    }

    @Test
    void context_onThePrompt_isAnAddedTextPart() {
        assertThat(result("promptContext")).containsEntry("threw", null)
                .containsEntry("parts", List.of("hello", "[warden] CTX-1"));
    }

    /** Exit 2 is the launcher's refusal under WARDEN_FAIL_MODE=closed: the bridge refuses with its words. */
    @Test
    void launcherExit2_isARefusalWithItsStderr() {
        assertThat((String) result("exit2").get("threw")).contains("refusing (WARDEN_FAIL_MODE=closed)");
    }

    @Test
    void unreadableAnswer_failsOpen_loudly() {
        assertThat(result("garbled")).containsEntry("threw", null);
        assertThat(stderr).contains("unreadable answer").contains("allowing (fail-open");
    }

    @Test
    void missingLauncher_failsOpen_byDefault_andSaysSo() {
        assertThat(result("missingOpen")).containsEntry("threw", null);
        assertThat(stderr).contains("cannot run " + dir.resolve("nowhere/bin/warden")).contains("allowing (fail-open");
    }

    @Test
    void missingLauncher_underFailClosed_refuses_whereTheEventCanBeRefused() {
        assertThat((String) result("missingClosed").get("threw")).contains("refused (fail_closed)");
        assertThat(result("missingClosedAfter")).as("tool.execute.after cannot refuse").containsEntry("threw", null);
        assertThat(stderr).contains("refusing (WARDEN_FAIL_MODE=closed)");
    }

    @Test
    void noAnswerWithinTheDeadline_followsTheFailMode() {
        assertThat(result("timeout")).containsEntry("threw", null);
        assertThat((String) result("timeoutClosed").get("threw")).contains("no answer within 500 ms");
    }

    /** The child session's events carry parentID and rootID, and its start and idle get the subagent names. */
    @Test
    void childSession_carriesLineage_andSubagentEventNames() {
        List<String> hooks = new ArrayList<>();
        for (Map<String, Object> c : calls) {
            hooks.add((String) c.get("hook"));
        }
        int created = hooks.indexOf("event.subagent.created");
        assertThat(created).as("hooks " + hooks).isPositive();
        assertThat(calls.get(created)).containsEntry("parentID", "ses_top").containsEntry("rootID", "ses_top");
        Map<String, Object> childCall = calls.get(created + 1);
        assertThat(childCall).containsEntry("hook", "tool.execute.before").containsEntry("parentID", "ses_top");
        assertThat(calls.get(created + 2)).containsEntry("hook", "event.subagent.idle");
    }

    /** Callbacks the manifest does not bind start no process (message.updated, chat.params here). */
    @Test
    void unboundCallbacks_startNoProcess() {
        assertThat(calls).extracting(c -> c.get("hook")).doesNotContain("event.message.updated", "chat.params",
                "event.session.created");
        assertThat(calls.get(calls.size() - 1)).containsEntry("hook", "event.subagent.idle");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> result(String name) {
        return (Map<String, Object>) results.get(name);
    }

    private static int number(Path f) {
        String n = f.getFileName().toString();
        return Integer.parseInt(n.substring(0, n.indexOf('.')));
    }

    private static Path onPath(String name) throws IOException {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(d.isEmpty() ? "." : d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
