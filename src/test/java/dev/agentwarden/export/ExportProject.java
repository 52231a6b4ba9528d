package dev.agentwarden.export;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.testing.DispatchCall;
import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.ledger.LedgerLine;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** A temp project dispatched into in-process (real decision lines) with a ledger written by the real store. */
final class ExportProject {
    static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-rm-root:
                script: builtin:deny-pattern
                tools: [Bash]
                patterns:
                  - match: 'rm -rf /'
                    reason: "removes the whole file system"
              sudo-shadow:
                script: builtin:deny-pattern
                posture: shadow
                tools: [Bash]
                patterns:
                  - match: 'sudo'
                    reason: "sudo escalates privileges"
            platforms:
              claude:
                pre_tool_use: [no-rm-root, sudo-shadow]
                user_prompt_submit: [sudo-shadow]
            native_event_aliases:
              claude:
                PreToolUse: pre_tool_use
                UserPromptSubmit: user_prompt_submit
            """;

    final Path dir;
    final Path manifest;
    final Map<String, String> env = new LinkedHashMap<>();

    ExportProject(Path dir, String manifestYaml) throws IOException {
        this.dir = dir;
        this.manifest = dir.resolve("manifest.yaml");
        Files.writeString(manifest, manifestYaml);
        env.put("WARDEN_CACHE_DIR", Files.createDirectories(dir.resolve("cache")).toString());
        env.put("CLAUDE_PROJECT_DIR", dir.toString());
    }

    /** One dispatch at {@code at}, with {@code extraEnv} added to the hook's environment. */
    void dispatch(String at, Map<String, String> extraEnv, String nativeEvent, String payload) {
        Map<String, String> e = new LinkedHashMap<>(env);
        e.putAll(extraEnv);
        String[] argv = {"dispatch", "--host", "claude", "--native-event", nativeEvent, "--manifest", manifest.toString()};
        DispatchCall.respond(argv, new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                Caller.thisProcess(e), Clock.fixed(Instant.parse(at), ZoneOffset.UTC), DispatchRequest.Transport.OWN_JVM);
    }

    /**
     * {@link #dispatch} as a long-lived server runs it: in {@code runtime}, whose clock is
     * {@code clock}, set to {@code at} first, its line written through the runtime's open segments.
     */
    void dispatch(String at, Map<String, String> extraEnv, String nativeEvent, String payload,
                  DispatchRuntime runtime, MutableClock clock) {
        Map<String, String> e = new LinkedHashMap<>(env);
        e.putAll(extraEnv);
        clock.set(Instant.parse(at));
        DispatchRequest.Route route = new DispatchRequest.Route("claude", null, nativeEvent, manifest.toString(), null);
        runtime.respond(DispatchRequest.of(route, payload.getBytes(StandardCharsets.UTF_8), Caller.thisProcess(e),
                DispatchRequest.Transport.RESIDENT));
    }

    /** A ledger line appended by the real store at {@code at}. */
    void ledger(String at, LedgerLine.Event event, Map<LedgerLine.Key, Object> fields) throws IOException {
        LedgerLine.Builder b = LedgerLine.of(event);
        for (Map.Entry<LedgerLine.Key, Object> f : fields.entrySet()) {
            b.put(f.getKey(), f.getValue());
        }
        new LedgerStore(LedgerPaths.forRoot(dir.toString()), Clock.fixed(Instant.parse(at), ZoneOffset.UTC))
                .append(b.fields());
    }

    static String ref(String agentId) {
        return AgentRef.of(agentId);
    }

    static String bash(String session, String agentId, String command) {
        return "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + (agentId == null ? "" : "\"agent_id\":\"" + agentId + "\",")
                + "\"tool_input\":{\"command\":" + Json.write(command) + "}}";
    }

    static String prompt(String session, String text) {
        return "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
                + Json.write(text) + "}";
    }

    List<String> decisionLines() throws IOException {
        List<String> out = new ArrayList<>();
        Path logDir = DecisionLog.dir(dir.toString());
        try (Stream<Path> files = Files.list(logDir)) {
            for (Path f : files.sorted().toList()) {
                for (String l : Files.readString(f, StandardCharsets.UTF_8).split("\n")) {
                    if (!l.isEmpty()) {
                        out.add(l);
                    }
                }
            }
        }
        return out;
    }
}
