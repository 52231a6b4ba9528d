package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What one Claude Code session did, read from the three places it leaves evidence: its JSON output
 * on stdout ({@code result}, {@code permission_denials}), the requests it sent to the scripted model
 * (tool results and the hook context around them), and its session transcript under
 * {@code ~/.claude/projects/} (a {@code hook_success} attachment per hook that printed anything,
 * with that hook's stdout, stderr and exit code).
 */
final class ClaudeRun {
    private final Command.Result process;
    private final E2eProject project;
    private final ScriptedModelServer server;
    private final Map<String, Object> output;

    ClaudeRun(Command.Result process, E2eProject project, ScriptedModelServer server) {
        this.process = process;
        this.project = project;
        this.server = server;
        this.output = parseOutput(process.stdout());
    }

    Command.Result process() {
        return process;
    }

    ScriptedModelServer server() {
        return server;
    }

    /** The session's JSON result object, or an empty map when stdout held none. */
    Map<String, Object> output() {
        return output;
    }

    /** The session's final text ({@code result}), or null. */
    String resultText() {
        return output.get("result") instanceof String s ? s : null;
    }

    /** Whether the host finished the session normally: exit 0 and a non-error result. */
    boolean completed() {
        return process.exitCode() == 0 && Boolean.FALSE.equals(output.get("is_error"));
    }

    /** Tool-use ids the host reports as refused (by its permission rules or by a hook). */
    List<String> permissionDenials() {
        List<String> ids = new ArrayList<>();
        for (Object d : AnthropicMessagesApi.list(output.get("permission_denials"))) {
            if (d instanceof Map<?, ?> denial && denial.get("tool_use_id") instanceof String id) {
                ids.add(id);
            }
        }
        return ids;
    }

    /**
     * What the host told the model about one scripted tool call, from the first request carrying its
     * result: the result block, plus every text the host put beside it (text blocks of the same user
     * message, and the system messages that follow before the next model turn); {@code systemMessages}
     * holds only the latter.
     */
    record ToolResultSeen(boolean isError, String content, List<String> context, List<String> systemMessages) {
        /** The result and its context, for reports. */
        String describe() {
            return "is_error=" + isError + ", content=\"" + content + "\"";
        }
    }

    Optional<ToolResultSeen> toolResult(String scriptedId) {
        String toolUseId = AnthropicMessagesApi.toolUseId(scriptedId);
        for (ScriptedModelServer.Exchange e : server.steps()) {
            List<?> messages = AnthropicMessagesApi.list(e.body().get("messages"));
            for (int i = 0; i < messages.size(); i++) {
                if (!(messages.get(i) instanceof Map<?, ?> message) || !"user".equals(message.get("role"))) {
                    continue;
                }
                Map<?, ?> result = null;
                List<String> context = new ArrayList<>();
                List<String> system = new ArrayList<>();
                for (Object b : AnthropicMessagesApi.list(message.get("content"))) {
                    if (b instanceof Map<?, ?> block) {
                        if ("tool_result".equals(block.get("type")) && toolUseId.equals(block.get("tool_use_id"))) {
                            result = block;
                        } else if ("text".equals(block.get("type")) && block.get("text") instanceof String t) {
                            context.add(t);
                        }
                    }
                }
                if (result == null) {
                    continue;
                }
                for (int j = i + 1; j < messages.size() && messages.get(j) instanceof Map<?, ?> next
                        && "system".equals(next.get("role")); j++) {
                    context.add(String.valueOf(next.get("content")));
                    system.add(String.valueOf(next.get("content")));
                }
                return Optional.of(new ToolResultSeen(Boolean.TRUE.equals(result.get("is_error")),
                        contentText(result.get("content")), context, system));
            }
        }
        return Optional.empty();
    }

    /** The session transcript's entries ({@code ~/.claude/projects/<project>/<session>.jsonl}). */
    List<Map<String, Object>> transcript() throws IOException {
        Object sessionId = output.get("session_id");
        Path projects = project.home().resolve(".claude/projects");
        if (!(sessionId instanceof String id) || !Files.isDirectory(projects)) {
            return List.of();
        }
        List<Map<String, Object>> entries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(projects, 2)) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals(id + ".jsonl")).toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        entries.add(Json.parseObject(line));
                    }
                }
            }
        }
        return entries;
    }

    /** The transcript's records of hooks for one native event that printed something. */
    List<Map<?, ?>> hookRecords(String nativeEvent) throws IOException {
        List<Map<?, ?>> out = new ArrayList<>();
        for (Map<String, Object> entry : transcript()) {
            if (entry.get("attachment") instanceof Map<?, ?> a && String.valueOf(a.get("type")).startsWith("hook_")
                    && nativeEvent.equals(a.get("hookEvent")) && a.containsKey("exitCode")) {
                out.add(a);
            }
        }
        return out;
    }

    /** Milliseconds from the model server's start (just before the host's) to the host's first model call. */
    long firstModelCallMillis() {
        return server.steps().stream().mapToLong(ScriptedModelServer.Exchange::atMillis).findFirst().orElse(-1);
    }

    /** The model calls as {@code conversation#step@ms}, in arrival order. */
    List<String> timeline() {
        return server.steps().stream().map(e -> e.route() + "#" + e.step() + "@" + e.atMillis()).toList();
    }

    /** A one-line account of how the process ended, for failure messages. */
    String describe() {
        return "exit " + process.exitCode() + (process.timedOut() ? " (timed out)" : "") + " after "
                + process.millis() + " ms; result=" + Json.write(output.get("result"))
                + "; model calls=" + timeline() + "; stderr=" + process.tail() + "; model problems=" + server.problems();
    }

    private static String contentText(Object content) {
        if (content instanceof String s) {
            return s;
        }
        StringBuilder text = new StringBuilder();
        for (Object b : AnthropicMessagesApi.list(content)) {
            if (b instanceof Map<?, ?> block && block.get("text") instanceof String s) {
                text.append(text.length() == 0 ? "" : "\n").append(s);
            }
        }
        return text.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parseOutput(String stdout) {
        String text = stdout.strip();
        if (!text.startsWith("{")) {
            return Map.of();
        }
        try {
            Object value = Json.parse(text, JsonLimits.LENIENT);
            return value instanceof Map ? (Map<String, Object>) value : Map.of();
        } catch (JsonException e) {
            return Map.of();
        }
    }
}
