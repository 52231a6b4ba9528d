package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.export.OtlpReceiver;
import dev.agentwarden.json.Json;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 31: the real Claude Code with its OpenTelemetry tracing on, exporting over OTLP/HTTP to the
 * in-test {@link OtlpReceiver} (through the loopback sandbox), Warden's hooks installed and answered
 * by a {@link SandboxResident} that exports live to the same receiver ({@code WARDEN_OTLP_LIVE});
 * then {@code warden export} sends the same decisions to a second receiver. On both paths Warden's
 * {@code execute_tool} and {@code apply_guardrail} spans must sit in the host's trace, under the span
 * the host put in the hook's {@code TRACEPARENT}.
 *
 * <p>What the hook subprocesses got is kept as evidence: a second PreToolUse hook of the project
 * writes its whole environment to a file, as does the Bash command the model runs, and the test
 * reports the {@code TRACEPARENT}, {@code OTEL_*} and telemetry variables they saw.
 *
 * <p>Measured on 2.1.197 and 2.1.332 (docs/opentelemetry.md): with only
 * {@code CLAUDE_CODE_ENABLE_TELEMETRY=1}, {@code CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1} and
 * {@code OTEL_TRACES_EXPORTER=otlp} the host exports its spans but its hooks get no
 * {@code TRACEPARENT}; with {@code ENABLE_BETA_TRACING_DETAILED=1} and
 * {@code CLAUDE_CODE_PROPAGATE_TRACEPARENT=1} as well, every hook of a turn gets the
 * {@code claude_code.interaction} span of that turn (not a tool or hook span), and the Bash tool
 * another span of the same trace. {@code OTEL_*} variables never reach a hook.
 */
@Tag("e2e")
@ResourceLock(HostSuite.LOCK_PREFIX + "claude-code")
class ClaudeTelemetryJoinIT {
    private static final E2eSummary SUMMARY = new E2eSummary();

    @TempDir
    static Path suiteDir;

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    /** Made by the test once Warden's two tool spans reached the receiver; the allowed tool waits for it. */
    private static final String SPANS_ARRIVED = "spans-arrived";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"claude-code", "claude-code-current"})
    void wardenSpans_joinTheHostsTrace(String hostId, @TempDir Path dir) throws Exception {
        HostInstall.Host hostUnderTest = hostId.equals(HostInstall.CLAUDE_CODE.id()) ? HostInstall.CLAUDE_CODE
                : HostInstall.CLAUDE_CODE_CURRENT;
        HostInstall.Outcome outcome = HostInstall.ensureOrAnnounce(hostUnderTest, "Claude Code", SUMMARY);
        E2eSummary.Row row = SUMMARY.row("claude-code " + outcome.version(), "telemetry on: Warden's spans in the host's trace",
                "hooks see TRACEPARENT; execute_tool/apply_guardrail spans share the host's trace id under a host span");
        E2eProject project = E2eProject.forScenario(dir, outcome.unavailable(), row);
        Path launcher = HostSuite.launcher();
        LoopbackSandbox sandbox = LoopbackSandbox.probe(Files.createDirectories(suiteDir.resolve("sandbox-" + hostId)));
        ClaudeCodeSession claude = new ClaudeCodeSession(outcome.binary(), sandbox, suiteDir.resolve("warden-cache"));

        project.manifest(E2eProject.manifestText("claude", """
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-31t: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """, "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"));
        Command.Result install = project.installWarden(launcher, claude.baseEnv());
        assertThat(install.exitCode()).as(install.stdout() + install.stderr()).isZero();
        writeLocalSettings(project);

        Path cache = Files.createDirectories(project.dir().resolve("warden-cache"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        SandboxResident resident = new SandboxResident(cache, project.dir());
        try (OtlpReceiver receiver = new OtlpReceiver(); OtlpReceiver history = new OtlpReceiver();
             UnixSocketBridge otlp = UnixSocketBridge.start(project.dir().resolve("otlp.sock"), port(receiver));
             ScriptedModelServer model = ScriptedModelServer.start(new AnthropicMessagesApi(), ModelScript.of(
                     Turn.tool("denied", "Bash", Map.of("command", "touch denied-marker", "description", "denied")),
                     Turn.tool("allowed", "Bash", Map.of("command", "./dump-env.sh", "description", "allowed")),
                     Turn.text("FINAL: done")))) {
            Map<String, String> env = new HashMap<>();
            env.put("DISABLE_TELEMETRY", null);
            env.put("CLAUDE_CODE_ENABLE_TELEMETRY", "1");
            env.put("CLAUDE_CODE_ENHANCED_TELEMETRY_BETA", "1");
            env.put("OTEL_TRACES_EXPORTER", "otlp");
            env.put("OTEL_METRICS_EXPORTER", "none");
            env.put("OTEL_LOGS_EXPORTER", "none");
            env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
            env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port(receiver));
            env.put("OTEL_TRACES_EXPORT_INTERVAL", "500");
            env.put("OTEL_SERVICE_NAME", "claude-code");
            // the other switches the binary names around its trace propagation
            env.put("ENABLE_BETA_TRACING_DETAILED", "1");
            env.put("CLAUDE_CODE_PROPAGATE_TRACEPARENT", "1");
            // Warden: every hook answered by a resident (its launcher's java refuses to start) that
            // exports live to the same receiver; WARDEN_* forms, since no OTEL_* variable reaches a hook
            env.putAll(resident.hookEnv());
            env.put("WARDEN_CACHE_DIR", cache.toString());
            env.put("WARDEN_OTLP_LIVE", "http://127.0.0.1:" + port(receiver));
            env.put("WARDEN_OTEL_SERVICE_NAME", "agent-warden-live");
            List<String> inside = new ArrayList<>(sandbox.alsoForward(port(receiver), otlp));
            inside.addAll(resident.inside());
            ClaudeRun run;
            List<Span> live;
            String residentSaid;
            // the allowed Bash tool (dump-env.sh) waits, up to 30 s, until both tool spans reached the
            // receiver: the resident sends through a forward that lives only as long as the session
            Thread spansArrived = new Thread(() -> {
                long until = System.nanoTime() + 60_000_000_000L;
                try {
                    while (System.nanoTime() < until) {
                        if (receiver.spansOf("agent-warden-live").stream()
                                .filter(x -> x.getName().startsWith("execute_tool")).count() >= 2) {
                            Files.writeString(project.root().resolve(SPANS_ARRIVED), "");
                            return;
                        }
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException e) {
                    System.err.println("spans-arrived watcher: " + e);
                }
            }, "spans-arrived");
            spansArrived.setDaemon(true);
            spansArrived.start();
            try {
                run = claude.run(project, model, "touch the markers", env, inside);
                row.timing(run);
                assertThat(run.process().exitCode()).as(run.process().stderr()).isZero();
                live = poll(() -> receiver.spansOf("agent-warden-live"),
                        spans -> spans.stream().filter(x -> x.getName().startsWith("execute_tool")).count() >= 2);
            } finally {
                residentSaid = resident.stop();
            }
            assertThat(residentSaid).matches(SandboxResident.ANSWERED_FORWARDED);
            assertThat(resident.javaCalls()).as("java started by a hook (the resident answers every one)").isEmpty();

            List<Map<String, String>> hookEnvs = environments(project, "hook-env-");
            List<Map<String, String>> toolEnvs = environments(project, "tool-env");
            List<Map<String, Object>> decisions = decisionLines(project);
            List<Span> host = receiver.spansOf("claude-code");

            Map<String, String> exportEnv = new LinkedHashMap<>(claude.baseEnv());
            exportEnv.put("HOME", project.home().toString());
            Command.Result export = Command.run(List.of(launcher.toString(), "export", "--otlp", history.base(),
                    "--project-dir", project.root().toString()), project.root(), exportEnv, Duration.ofSeconds(120));
            assertThat(export.exitCode()).as(export.stdout() + export.stderr()).isZero();
            List<Span> exported = history.spansOf("agent-warden");

            Map<String, String> hostNames = new HashMap<>();
            host.forEach(s -> hostNames.put(hex(s.getSpanId().toByteArray()), s.getName()));
            String evidence = "hook env: " + hookEnvs.stream().map(ClaudeTelemetryJoinIT::traceVariables).toList()
                    + "; Bash tool env: " + toolEnvs.stream().map(ClaudeTelemetryJoinIT::traceVariables).toList()
                    + "; decision traceparents: " + decisions.stream().map(d -> String.valueOf(d.get("traceparent"))).toList()
                    + "; host spans: " + host.stream().map(Span::getName).distinct().sorted().toList()
                    + "; live tool spans' parents: " + parents(live, hostNames)
                    + "; exported tool spans' parents: " + parents(exported, hostNames) + "; resident " + residentSaid;
            System.out.println("[" + hostId + " " + outcome.version() + "] " + evidence);
            row.observed(evidence);

            assertThat(hookEnvs).as("the env-dumping PreToolUse hook ran").isNotEmpty();
            assertThat(host).as("the host exported spans to the receiver").isNotEmpty();
            assertThat(toolEnvs).as("the Bash tool ran").hasSize(1);
            assertThat(host).extracting(Span::getName).contains("claude_code.tool");
            assertThat(hookEnvs).as("every hook saw a TRACEPARENT").allSatisfy(env2 -> assertThat(env2).containsKey("TRACEPARENT"));
            assertThat(hookEnvs).as("no OTEL_* variable reaches a hook").allSatisfy(env2 -> assertThat(env2.keySet())
                    .noneMatch(k -> k.startsWith("OTEL_")));
            assertThat(decisions).as("each decision line keeps the hook's TRACEPARENT")
                    .allSatisfy(d -> assertThat(d.get("traceparent")).isIn(hookEnvs.stream().map(e -> e.get("TRACEPARENT")).toList()));
            assertJoined("live", live, host, hostNames);
            assertJoined("warden export", exported, host, hostNames);
            row.pass();
        }
    }

    /**
     * Warden's two {@code execute_tool} spans are children of the host's {@code claude_code.interaction}
     * span, in its trace, each with its {@code apply_guardrail} spans under it.
     */
    private static void assertJoined(String path, List<Span> warden, List<Span> host, Map<String, String> hostNames) {
        List<Span> tools = warden.stream().filter(s -> s.getName().startsWith("execute_tool")).toList();
        List<Span> guardrails = warden.stream().filter(s -> s.getName().startsWith("apply_guardrail")).toList();
        assertThat(tools).as(path).hasSize(2);
        for (Span tool : tools) {
            assertThat(hostNames.get(hex(tool.getParentSpanId().toByteArray())))
                    .as(path + ": the parent of " + tool.getName() + " is the host's interaction span")
                    .isEqualTo("claude_code.interaction");
            assertThat(host).anySatisfy(h -> assertThat(h.getTraceId()).isEqualTo(tool.getTraceId()));
        }
        assertThat(guardrails).as(path).isNotEmpty().allSatisfy(g -> assertThat(tools).anySatisfy(t -> {
            assertThat(g.getParentSpanId()).isEqualTo(t.getSpanId());
            assertThat(g.getTraceId()).isEqualTo(t.getTraceId());
        }));
    }

    private static List<String> parents(List<Span> warden, Map<String, String> hostNames) {
        return warden.stream().filter(s -> s.getName().startsWith("execute_tool"))
                .map(s -> hostNames.getOrDefault(hex(s.getParentSpanId().toByteArray()), "(not a host span)")).toList();
    }

    private static <T> T poll(Callable<T> read, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            T value = read.call();
            if (done.test(value)) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s; last: " + value);
            }
            Thread.sleep(50);
        }
    }

    /** The receiver's port (its base URL ends with it). */
    private static int port(OtlpReceiver receiver) {
        String base = receiver.base();
        return Integer.parseInt(base.substring(base.lastIndexOf(':') + 1));
    }

    /** The host's allow rules for both commands and a PreToolUse hook that keeps its whole environment. */
    private static void writeLocalSettings(E2eProject project) throws IOException {
        Map<String, Object> dump = Map.of("type", "command",
                "command", "env > \"$CLAUDE_PROJECT_DIR/hook-env-$(date +%s%N).txt\"");
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("permissions", Map.of("allow", List.of("Bash(touch denied-marker)", "Bash(./dump-env.sh)")));
        settings.put("hooks", Map.of("PreToolUse", List.of(Map.of("matcher", "Bash", "hooks", List.of(dump)))));
        Files.writeString(project.root().resolve(".claude/settings.local.json"), Json.writePretty(settings),
                StandardCharsets.UTF_8);
        Path tool = project.root().resolve("dump-env.sh");
        Files.writeString(tool, "#!/bin/sh\nenv > \"$(dirname \"$0\")/tool-env.txt\"\n"
                + "i=0; while [ ! -e \"$(dirname \"$0\")/" + SPANS_ARRIVED + "\" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done\n",
                StandardCharsets.UTF_8);
        if (!tool.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + tool + " executable");
        }
    }

    /** The environments written to files named {@code prefix*} in the project root, oldest first. */
    private static List<Map<String, String>> environments(E2eProject project, String prefix) throws IOException {
        List<Map<String, String>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(project.root())) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList()) {
                Map<String, String> env = new LinkedHashMap<>();
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        env.put(line.substring(0, eq), line.substring(eq + 1));
                    }
                }
                out.add(env);
            }
        }
        return out;
    }

    /** The variables of a hook's environment that bear on tracing. */
    private static Map<String, String> traceVariables(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("TRACE") || k.startsWith("OTEL_") || k.contains("TELEMETRY") || k.startsWith("WARDEN_OTLP")
                    || k.startsWith("WARDEN_OTEL")) {
                out.put(k, v);
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> decisionLines(E2eProject project) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        Path dir = project.root().resolve(".warden/state/decisions");
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        out.add((Map<String, Object>) Json.parse(line, dev.agentwarden.json.JsonLimits.LENIENT));
                    }
                }
            }
        }
        return out;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
