package dev.agentwarden.cli;

import dev.agentwarden.dispatch.Dispatcher;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Replays {@code examples/sessions/claude-session.jsonl} (one {@code {"native_event", "payload"}}
 * per line) through {@code bin/warden dispatch --host claude}, one process per event exactly as
 * Claude Code runs it, against {@code examples/demo/manifest.yaml}, and prints event, chain,
 * verdict and wall time.
 */
final class SessionReplayDemo implements DemoSection {
    static final String SESSION = "examples/sessions/claude-session.jsonl";

    @Override
    public String title() {
        return "Claude Code session replay: " + SESSION + " through `warden dispatch --host claude`";
    }

    @Override
    public void run(DemoEnv env) throws Exception {
        if (env.home() == null) {
            throw new IllegalStateException("run the demo from a Warden checkout (bin/warden demo): examples/ not found");
        }
        Path project = env.workDir();
        installDemoManifest(env.home(), project);
        Map<String, String> childEnv = new HashMap<>(env.hostEnv());
        childEnv.put(Hosts.demo().projectDirVariables().get(0), project.toString());
        DemoDispatch.trust(childEnv, project);
        Manifest manifest = ManifestLoader.load(ManifestLoader.locate(null, project.toString()), childEnv);
        HostAdapter claude = Hosts.demo().adapter();
        Dispatcher dispatcher = new Dispatcher(manifest, Clock.systemUTC(), childEnv);

        PrintWriter out = env.out();
        out.println("project: " + project + "   manifest: .warden/manifest.yaml   transport: "
                + (env.launcher() != null ? "one bin/warden process per event, as Claude Code runs it"
                        : "in-process (bin/warden not found)"));
        if (env.launcher() != null) {
            out.println("(the first event is answered by a JVM and starts the resident server; once it is up, bin/warden"
                    + " hands events to it and no JVM starts)");
        }
        out.println("How to read the table:");
        out.println("  event    the hook event Claude Code sends, with the tool for tool events (PreToolUse: before a tool");
        out.println("           runs, so Warden can refuse it; PostToolUse: after it ran)");
        out.println("  input    what the agent asked for: the tool input (a command, a file path) or the prompt");
        out.println("  chain    the concerns (policy checks) the manifest binds to the event, after each concern's");
        out.println("           `tools` filter: a concern for Bash does not run for Read");
        out.println("  verdict  what reached Claude Code: DENY (the tool call is refused, with the reason), CONTEXT (a");
        out.println("           note added for the model), BLOCK/HALT (stop), or no opinion (exit 0, nothing printed:");
        out.println("           Claude Code goes on as if no hook ran)");
        out.printf("%-3s %-17s %-34s %-30s %-50s %6s%n", "#", "event", "input", "chain", "verdict", "ms");
        List<Long> latencies = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(env.home().resolve(SESSION), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> record = Json.parseObject(line.replace("{{PROJECT}}", project.toString()));
            String nativeEvent = (String) record.get("native_event");
            String payload = Json.write(record.get("payload"));
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) record.get("payload");
            EventName event = manifest.canonicalEvent(Hosts.demo().id(), nativeEvent);
            String chain = event == null ? "(unbound)" : dispatcher.chainFor(
                    claude.normalize(nativeEvent, event, fields, payload.getBytes(StandardCharsets.UTF_8), project.toString()),
                    Manifest.DEFAULT_ROLE).stream().map(ConcernSpec::name).collect(Collectors.joining(", "));
            long start = System.nanoTime();
            String stdout = DemoDispatch.claude(env.launcher(), project, childEnv, nativeEvent, payload);
            long ms = (System.nanoTime() - start) / 1_000_000;
            latencies.add(ms);
            out.printf("%-3d %-17s %-34s %-30s %-50s %6d%n", ++n, nativeEvent + toolOf(fields),
                    clip(inputOf(fields, project), 34), clip(chain.isEmpty() ? "—" : chain, 30), clip(describe(stdout), 50), ms);
            out.flush();
        }
        latencies.sort(Long::compare);
        out.println("median wall time per event: " + latencies.get(latencies.size() / 2) + " ms (the whole hook process,"
                + " as the host waits for it)");
        DemoAftermath.show(env, project, childEnv);
    }

    /** What the agent asked for, in a few words: a Bash command, a file path, a prompt; "—" for none. */
    @SuppressWarnings("unchecked")
    static String inputOf(Map<String, Object> payload, Path project) {
        String where = project.toString() + "/";
        if (payload.get("tool_input") instanceof Map<?, ?> m) {
            Map<String, Object> input = (Map<String, Object>) m;
            for (String key : new String[] {"command", "file_path", "path", "pattern", "url", "prompt"}) {
                if (input.get(key) instanceof String v) {
                    return v.replace(where, "");
                }
            }
            return Json.write(input);
        }
        if (payload.get("prompt") instanceof String prompt) {
            return "prompt: \"" + prompt + "\"";
        }
        return "—";
    }

    static void installDemoManifest(Path home, Path project) throws IOException {
        Path warden = project.resolve(".warden");
        Files.createDirectories(warden.resolve("concerns"));
        Files.copy(home.resolve("examples/demo/manifest.yaml"), warden.resolve("manifest.yaml"),
                StandardCopyOption.REPLACE_EXISTING);
        Path script = warden.resolve("concerns/protect-env.sh");
        Files.copy(home.resolve("examples/demo/concerns/protect-env.sh"), script, StandardCopyOption.REPLACE_EXISTING);
        script.toFile().setExecutable(true);
    }

    /** A one-line reading of Claude hook output. */
    @SuppressWarnings("unchecked")
    static String describe(String stdout) {
        if (stdout.isBlank()) {
            return "no opinion (exit 0, no output)";
        }
        Map<String, Object> o = Json.parseObject(stdout);
        if (Boolean.FALSE.equals(o.get("continue"))) {
            return "HALT: " + o.get("stopReason");
        }
        if ("block".equals(o.get("decision"))) {
            return "BLOCK: " + o.get("reason");
        }
        if (o.get("hookSpecificOutput") instanceof Map<?, ?> h) {
            Map<String, Object> specific = (Map<String, Object>) h;
            if ("deny".equals(specific.get("permissionDecision"))) {
                return "DENY: " + specific.get("permissionDecisionReason");
            }
            if (specific.get("additionalContext") != null) {
                return "CONTEXT: " + specific.get("additionalContext");
            }
        }
        if (o.get("systemMessage") != null) {
            return "MESSAGE: " + o.get("systemMessage");
        }
        return stdout.strip();
    }

    private static String toolOf(Map<String, Object> payload) {
        return payload.get("tool_name") instanceof String s ? " " + s : "";
    }

    private static String clip(String s, int width) {
        String flat = s.replace('\n', ' ');
        return flat.length() <= width ? flat : flat.substring(0, width - 1) + "…";
    }
}
