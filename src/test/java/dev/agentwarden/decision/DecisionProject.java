package dev.agentwarden.decision;

import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.testing.DispatchCall;
import dev.agentwarden.host.HostResponse;
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

/** A temp project with a manifest, dispatched into in-process, and its decision log read back. */
final class DecisionProject {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-05T08:30:00.250Z"), ZoneOffset.UTC);
    /** Blocking, shadow and tool-filtered built-ins on Claude's PreToolUse and UserPromptSubmit. */
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
              env-files:
                script: builtin:deny-pattern
                tools: [Edit, Write]
                patterns:
                  - match: '\\.env'
                    reason: "env files hold secrets"
            platforms:
              claude:
                pre_tool_use: [no-rm-root, sudo-shadow, env-files]
                user_prompt_submit: [sudo-shadow]
            native_event_aliases:
              claude:
                PreToolUse: pre_tool_use
                UserPromptSubmit: user_prompt_submit
                Stop: stop
            """;

    final Path dir;
    final Path manifest;
    final Map<String, String> env = new LinkedHashMap<>();

    DecisionProject(Path dir, String manifestYaml) throws IOException {
        this.dir = dir;
        this.manifest = dir.resolve("manifest.yaml");
        Files.writeString(manifest, manifestYaml);
        env.put("WARDEN_CACHE_DIR", Files.createDirectories(dir.resolve("cache")).toString());
        env.put("CLAUDE_PROJECT_DIR", dir.toString());
    }

    HostResponse dispatch(String nativeEvent, String payload) {
        return dispatch(nativeEvent, payload, DecisionLog.OWN_JVM);
    }

    HostResponse dispatch(String nativeEvent, String payload, String transport) {
        return dispatchAs("claude", nativeEvent, payload, transport);
    }

    HostResponse dispatchAs(String host, String nativeEvent, String payload, String transport) {
        String[] argv = {"dispatch", "--host", host, "--native-event", nativeEvent, "--manifest", manifest.toString()};
        return DispatchCall.respond(argv, new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                dev.agentwarden.dispatch.Caller.thisProcess(env), CLOCK, transport(transport));
    }

    private static DispatchRequest.Transport transport(String wire) {
        for (DispatchRequest.Transport t : DispatchRequest.Transport.values()) {
            if (t.wire().equals(wire)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no transport " + wire);
    }

    Path logDir() {
        return DecisionLog.dir(dir.toString());
    }

    List<String> lines() throws IOException {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(logDir())) {
            return out;
        }
        try (Stream<Path> files = Files.list(logDir())) {
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
